// The segments as wrangler.toml lists them for an environment, and the edits that list one
// more: its [[d1_databases]] block and its name in PET_SEGMENTS (src/db/segments.ts). Text
// edits, so that the file's comments and order stay as they are.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { segmentBinding } from "../../src/db/segments";

/** The top-level tables for local development, `[env.<env>.…]` for a deployed environment. */
const tablePrefix = (env: string | undefined) => (env ? `env.${env}.` : "");

const sectionOf = (text: string, header: string) => {
  const start = text.indexOf(`\n${header}\n`);
  if (start < 0) return undefined;
  const next = text.slice(start + header.length + 2).search(/^\[/m);
  const end = next < 0 ? text.length : start + header.length + 2 + next;
  return { start, end };
};

const PET_SEGMENTS_LINE = /^PET_SEGMENTS = "([^"]*)"$/m;

/** The bindings PET_SEGMENTS lists for `env`, in order. */
export const listedSegments = (text: string, env: string | undefined): string[] => {
  const header = `[${tablePrefix(env)}vars]`;
  const section = sectionOf(text, header);
  const line = section && PET_SEGMENTS_LINE.exec(text.slice(section.start, section.end));
  if (!line) throw new Error(`wrangler.toml has no PET_SEGMENTS in ${header}.`);
  return (line[1] ?? "").trim().split(/\s+/);
};

/** `text` with PET_SEGMENTS of `env` listing `bindings`. */
export const withListedSegments = (text: string, env: string | undefined, bindings: string[]) => {
  const header = `[${tablePrefix(env)}vars]`;
  const section = sectionOf(text, header);
  if (!section) throw new Error(`wrangler.toml has no ${header}.`);
  const inside = text
    .slice(section.start, section.end)
    .replace(PET_SEGMENTS_LINE, `PET_SEGMENTS = "${bindings.join(" ")}"`);
  return text.slice(0, section.start) + inside + text.slice(section.end);
};

const blockHeader = (env: string | undefined) => `[[${tablePrefix(env)}d1_databases]]`;

/** The [[d1_databases]] blocks of `env`, each with its binding, name and id. */
export const databaseBlocks = (text: string, env: string | undefined) => {
  const header = blockHeader(env);
  const blocks: { binding: string; name: string; id: string; end: number }[] = [];
  for (let at = text.indexOf(`\n${header}\n`); at >= 0; at = text.indexOf(`\n${header}\n`, at + 1)) {
    const rest = text.slice(at + header.length + 2);
    const length = rest.search(/\n\s*\n|\n\[/);
    const body = length < 0 ? rest : rest.slice(0, length);
    const field = (name: string) => new RegExp(`^${name} = "([^"]*)"$`, "m").exec(body)?.[1] ?? "";
    blocks.push({
      binding: field("binding"),
      name: field("database_name"),
      id: field("database_id"),
      end: at + header.length + 2 + body.length,
    });
  }
  return blocks;
};

/** `text` with a block for segment `position` of `env` after the block of the segment before it (a no-op when it is there). */
export const withSegmentDatabase = (
  text: string,
  env: string | undefined,
  position: number,
  database: { name: string; id: string },
) => {
  const blocks = databaseBlocks(text, env);
  if (blocks.some(({ binding }) => binding === segmentBinding(position))) return text;
  const previous = blocks.find(({ binding }) => binding === segmentBinding(position - 1));
  if (!previous) throw new Error(`wrangler.toml binds no ${segmentBinding(position - 1)} for ${env ?? "development"}.`);
  const block = [
    "",
    "",
    blockHeader(env),
    `binding = "${segmentBinding(position)}"`,
    `database_name = "${database.name}"`,
    `database_id = "${database.id}"`,
    'migrations_dir = "drizzle"',
  ].join("\n");
  return text.slice(0, previous.end) + block + text.slice(previous.end);
};

/** The name of segment `position`'s database: the first segment's name, and `-pets-<n>`. */
export const segmentDatabaseName = (firstName: string, position: number) => `${firstName}-pets-${position}`;

/**
 * The id of a local segment's database: local D1 keeps a database's file by its id, which is
 * only a label there; the first segment's with its last digits made the position.
 */
export const localDatabaseId = (firstId: string, position: number) =>
  `${firstId.slice(0, -8)}${String(position).padStart(4, "0")}${firstId.slice(-4)}`;

/**
 * A copy of wrangler.toml in `folder`, named `name`, with its paths made to reach the
 * repository's files: a configuration for segment:open to edit beside the real one (the
 * bench and the tests open segments on scratch state).
 */
export const configCopy = (folder: string, name = "wrangler.toml") => {
  const config = path.join(folder, name);
  const text = readFileSync("wrangler.toml", "utf8")
    .replace('main = "src/index.ts"', `main = "${path.relative(folder, "src/index.ts")}"`)
    .replaceAll('migrations_dir = "drizzle"', `migrations_dir = "${path.relative(folder, "drizzle")}"`);
  writeFileSync(config, text);
  return config;
};
