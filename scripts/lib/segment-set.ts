// A backup of a deployment with segments of pets (src/db/segments.ts) is a file per segment:
// `npm run backup` names them, and `npm run restore` takes them only together, as they were.
import path from "node:path";
import { firstIdOf, lastIdOf } from "../../src/db/segments";
import type { DumpContents } from "./check-dump";

/**
 * The file of segment `position`: the first segment's is the one named (it holds what is not
 * a pet as well); a later open segment's beside it, with `.pets-<n>`; a closed segment's, which
 * never changes, once, by its database's name and `.closed.sql`, kept for every later backup
 * in the same folder.
 */
export const segmentFile = (output: string, position: number, { closed, name }: { closed: boolean; name: string }) => {
  if (position === 0) return output;
  if (closed) return path.join(path.dirname(output), `${name}.closed.sql`);
  return `${output.replace(/\.sql$/, "")}.pets-${position}.sql`;
};

/**
 * What keeps `dumps` from being one deployment's segments, restored into one that lists
 * `listed` of them: one file per segment from the first on, the ids of each within its range,
 * every one before the last two closed, and closed in order.
 */
export const segmentSetProblems = (dumps: { file: string; contents: DumpContents }[], listed: number): string[] => {
  const positions = dumps.map(({ contents }) => contents.segment?.position ?? 0);
  const problems: string[] = [];
  if (dumps.length !== listed) {
    problems.push(
      `the target lists ${listed} segment${listed === 1 ? "" : "s"}, and ${dumps.length} file${dumps.length === 1 ? " was" : "s were"} given`,
    );
  }
  positions.forEach((position, index) => {
    const { file, contents } = dumps[index] as (typeof dumps)[number];
    if (positions.indexOf(position) !== index) problems.push(`${file} is segment ${position} again`);
    if (position >= dumps.length) problems.push(`${file} is segment ${position}, past the ${dumps.length} given`);
    const { first, last } = contents.ids;
    if (first !== null && last !== null && (first < firstIdOf(position) || last > lastIdOf(position))) {
      problems.push(`${file} holds ids ${first} to ${last}, outside segment ${position}'s range`);
    }
    if (position < dumps.length - 2 && !contents.segment?.closedAt)
      problems.push(`${file} is segment ${position}, and not closed`);
  });
  const closings = [...dumps]
    .sort((a, b) => (a.contents.segment?.position ?? 0) - (b.contents.segment?.position ?? 0))
    .map(({ contents }) => contents.segment?.closedAt)
    .filter((closedAt) => typeof closedAt === "number");
  if (closings.some((closedAt, index) => index > 0 && closedAt < (closings[index - 1] as number))) {
    problems.push("the segments were not closed in order: the files come from different deployments");
  }
  return problems;
};
