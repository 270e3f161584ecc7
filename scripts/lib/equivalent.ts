// What a survivor of `npm run test:mutation` judged equivalent is written as: where, what it
// becomes, and why no test can tell it apart from the code (./mutation-equivalents.ts lists them).

/** A survivor that no test can tell apart from the code: where, what it becomes, and why. */
export type Equivalent = { file: string; line: number; replacement: string; why: string };

/** One file's equivalents, each place as [line, replacement, why]. */
export const inFile = (file: string, places: [number, string, string][]): Equivalent[] =>
  places.map(([line, replacement, why]) => ({ file, line, replacement, why }));

/** One file's equivalents that share one reason, each place as [line, replacement]. */
export const alike = (file: string, why: string, places: [number, string][]): Equivalent[] =>
  inFile(
    file,
    places.map(([line, replacement]) => [line, replacement, why]),
  );
