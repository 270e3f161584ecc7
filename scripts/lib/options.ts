// How every operator script reads its command line: node:util's parseArgs, strict, with its
// refusals said in the project's words: the flag or value that was wrong, named whole, and the
// nearest right one where there is one, then the script's usage.
import { type ParseArgsConfig, parseArgs } from "node:util";
import { excerpt } from "../../src/lib/display-text";

/**
 * How many edits turn `a` into `b`: a character added, dropped or changed, or two neighbours
 * swapped, as typing slips (the optimal string alignment distance).
 */
const editDistance = (a: string, b: string) => {
  const [x, y] = [[...a], [...b]];
  const rows = [Array.from({ length: y.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      const changed = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min((rows[i - 1]?.[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (rows[i - 1]?.[j - 1] ?? 0) + changed);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[x.length]?.[y.length] ?? 0;
};

/**
 * Of `known`, the one `typed` was most likely meant to be: one it begins (prod, production), or
 * the closest within a third of its letters' edits (one at least); else none.
 */
export const nearest = (typed: string, known: readonly string[]): string | undefined => {
  const begun = typed.length >= 2 ? known.find((candidate) => candidate.startsWith(typed)) : undefined;
  if (begun) return begun;
  const [best] = known
    .map((candidate) => ({ candidate, edits: editDistance(typed, candidate) }))
    .sort((a, b) => a.edits - b.edits);
  return best && best.edits <= Math.max(1, Math.floor(best.candidate.length / 3)) ? best.candidate : undefined;
};

/** parseArgs(config), strict; what it refuses is refused in words that name the flag, and `usage` after them. */
export const parseOptions = <T extends ParseArgsConfig>(config: T, usage: string) => {
  try {
    return parseArgs({ strict: true, ...config });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
    const options = config.options ?? {};
    const flag = quoted.split(" ")[0] ?? "";
    const name = flag.replace(/^-+/, "");
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const near = nearest(name, Object.keys(options));
      const hint = near
        ? `did you mean --${near}?`
        : `it takes ${
            Object.keys(options)
              .map((known) => `--${known}`)
              .join(", ") || "none"
          }.`;
      throw new Error(`There is no option ${excerpt(flag)}: ${hint}\n${usage}`);
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      const takesValue = options[name]?.type === "string";
      throw new Error(`${flag} ${takesValue ? `takes a value: ${flag} <value>` : "takes no value"}.\n${usage}`);
    }
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
      throw new Error(`'${excerpt(quoted)}' is not an option, and this command takes nothing else.\n${usage}`);
    }
    throw error;
  }
};
