// What a survivor of `npm run test:mutation` judged equivalent is written as: where, what it
// becomes, and why no test can tell it apart from the code (./mutation-equivalents.ts lists them).
// Where is the code itself, the line as it reads, so that an entry follows its line when
// others move, and stops matching (test/node/scripts/mutation-equivalents.test.ts says so)
// once the line itself changes: the judgment is then to be made again.

/**
 * A survivor that no test can tell apart from the code: where (a line's code, and the column
 * from the line's first character when another mutant of the line makes the same
 * replacement), what it becomes, and why.
 */
export type Equivalent = { file: string; code: string; column?: number; replacement: string; why: string };

/** A place: the line's code, or the code and the column in it. */
type Place = string | [code: string, column: number];

const placed = (place: Place) => (typeof place === "string" ? { code: place } : { code: place[0], column: place[1] });

/** One file's equivalents, each as [place, replacement, why]. */
export const inFile = (file: string, places: [Place, string, string][]): Equivalent[] =>
  places.map(([place, replacement, why]) => ({ file, ...placed(place), replacement, why }));

/** One file's equivalents that share one reason, each as [place, replacement]. */
export const alike = (file: string, why: string, places: [Place, string][]): Equivalent[] =>
  inFile(
    file,
    places.map(([place, replacement]) => [place, replacement, why]),
  );

/** Whether a survivor on `line` (its text) at `column` of `file`, replaced by `replacement`, is one of `known`. */
export const isEquivalent = (
  known: Equivalent[],
  { file, line, column, replacement }: { file: string; line: string; column: number; replacement?: string },
) => {
  const code = line.trim();
  const fromCode = column - (line.length - line.trimStart().length);
  return known.some(
    (each) =>
      each.file === file &&
      each.code === code &&
      (each.column === undefined || each.column === fromCode) &&
      each.replacement === replacement,
  );
};
