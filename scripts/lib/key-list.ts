// What `npm run key:list` prints: every key's record from KV's listing, with its day of
// last use from D1, as a table whose cells are printable whoever wrote the records.
import { type ApiKeyRecord, SCOPES } from "../../src/keys/api-key";
import type { Stores } from "./stores";
import { describeTarget, type Target } from "./target";

/** Text as the terminal should show it: control and format characters escaped (\u{1b}), whoever wrote it. */
export const printable = (text: string) =>
  text.replaceAll(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (character) => `\\u{${character.codePointAt(0)?.toString(16)}}`);

/** A field of a record as a cell: a list joined with commas, any other value as JSON, escaped like a label. */
export const cell = (value: unknown, absent: string) =>
  printable(
    value === undefined
      ? absent
      : typeof value === "string"
        ? value
        : Array.isArray(value)
          ? value.map(String).join(",")
          : JSON.stringify(value),
  );

/** Each key's last day of use, from D1 (src/keys/last-used.ts); empty, with a note, if it cannot be read. */
const lastUsedDays = async (stores: Stores, target: Target): Promise<{ days: Map<string, string>; note?: string }> => {
  try {
    const rows = await stores.query<{ api_key_hash: string; day: string }>(
      "select api_key_hash, day from api_key_last_used",
    );
    return { days: new Map(rows.map((row) => [row.api_key_hash, row.day])) };
  } catch {
    const note = `The days of last use could not be read from ${describeTarget(target, "D1")}: are its migrations applied?`;
    return { days: new Map(), note };
  }
};

export const keyTable = async (stores: Stores, target: Target) => {
  const entries = await stores.keys.list();
  const { days, note } = await lastUsedDays(stores, target);
  const rows = [
    ["hash", "label", "scopes", "created", "expires", "last used"],
    ...entries.map(({ name, metadata }) => {
      // Every field as written, by this script or by hand: none is trusted to print safely.
      const record = (metadata ?? {}) as Record<keyof ApiKeyRecord, unknown>;
      return [
        printable(name),
        cell(record.label, "?"),
        cell(record.scopes, SCOPES.join(",")),
        cell(record.createdAt, "?"),
        cell(record.expiresAt, "never"),
        cell(days.get(name), "never"),
      ];
    }),
  ];
  return { said: note ?? "", printed: table(rows) };
};

/** Rows as lines of columns, each as wide as its widest cell. */
export const table = (rows: string[][]) => {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd(),
  );
};
