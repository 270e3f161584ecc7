// What a survivor of `npm run test:mutation` judged equivalent is written as: where, what it
// becomes, and why no test can tell it apart from the code (./mutation-equivalents.ts lists them).

/**
 * A survivor that no test can tell apart from the code: where (a line, and the column when
 * another mutant of the line makes the same replacement), what it becomes, and why.
 */
export type Equivalent = { file: string; line: number; column?: number; replacement: string; why: string };

/** A place: its line, or "line:column". */
type Place = number | `${number}:${number}`;

const placed = (place: Place) => {
  const [line, column] = String(place).split(":").map(Number);
  return { line: line as number, ...(column === undefined ? {} : { column }) };
};

/** One file's equivalents, each as [place, replacement, why]. */
export const inFile = (file: string, places: [Place, string, string][]): Equivalent[] =>
  places.map(([place, replacement, why]) => ({ file, ...placed(place), replacement, why }));

/** One file's equivalents that share one reason, each as [place, replacement]. */
export const alike = (file: string, why: string, places: [Place, string][]): Equivalent[] =>
  inFile(
    file,
    places.map(([place, replacement]) => [place, replacement, why]),
  );

/** Whether a survivor at `line`:`column` of `file`, replaced by `replacement`, is one of `known`. */
export const isEquivalent = (
  known: Equivalent[],
  { file, line, column, replacement }: { file: string; line: number; column: number; replacement?: string },
) =>
  known.some(
    (each) =>
      each.file === file &&
      each.line === line &&
      (each.column === undefined || each.column === column) &&
      each.replacement === replacement,
  );
