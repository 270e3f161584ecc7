// Issues, rolls, lists and revokes API keys. Only a key's SHA-256 and its record reach
// KV; the key itself is printed once (the last line of stdout) and never stored.
//
//   npm run --silent key:create -- <label> [--scope read|write|read,write] [--expires <instant or duration>]
//   npm run --silent key:roll   -- <key or hash> [--overlap <duration>] [--expires <instant or duration>]
//   npm run --silent key:list
//   npm run --silent key:revoke -- <key or hash>
//
// Each also takes --env staging|production with --remote, or, locally, --persist-to <dir>:
// the local KV and D1 of a `wrangler dev --persist-to <dir>` (or `npm run dev -- --persist-to
// <dir>`) instead of the ones under .wrangler/state, as the e2e tests and the bench keep
// scratch state. Every argument is checked before anything is written.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { API_KEY_PATTERN, type ApiKeyRecord, generateApiKey, hashApiKey, SCOPES, type Scope } from "../src/api-keys";
import { KNOWN_KEY_TTL_MS, KV_CACHE_TTL_S } from "../src/auth";
import { parseInstant } from "../src/instant";
import { DURATION, parseDuration } from "./duration";
import { describeTarget, TARGET_OPTIONS, type Target, targetArgs, targetFrom } from "./target";
import { wrangler } from "./wrangler";

const BINDING = ["--binding", "API_KEYS"];

/**
 * The scripts' clock: now, or the instant in PETSTORE_NOW (ISO 8601), which tests hand
 * over so that a key's expiry or a roll's overlap can be over without waiting for it.
 */
const clock = (): number => {
  const handed = process.env.PETSTORE_NOW;
  if (!handed) return Date.now();
  const instant = parseInstant(handed);
  if (Number.isNaN(instant)) throw new Error(`PETSTORE_NOW must be an instant with a zone, not '${handed}'.`);
  return instant;
};

/**
 * How long after a change to a key's record every isolate acts on it: an isolate keeps a
 * record it read for KNOWN_KEY_TTL_MS, and a deployed KV serves one from its edge cache
 * for KV_CACHE_TTL_S more (src/auth.ts).
 */
const seenEverywhereAfterMs = (target: Target) => KNOWN_KEY_TTL_MS + (target.remote ? KV_CACHE_TTL_S * 1000 : 0);
const HASH_PATTERN = /^[0-9a-f]{64}$/;
const DEFAULT_OVERLAP = "24h";

const USAGE = `Usage:
  npm run --silent key:create -- <label> [--scope read|write|read,write] [--expires <instant or duration>]
  npm run --silent key:roll   -- <key or hash> [--overlap <duration, default ${DEFAULT_OVERLAP}>] [--expires <instant or duration>]
  npm run --silent key:list
  npm run --silent key:revoke -- <key or hash>
each with [--env staging|production --remote | --persist-to DIR].
An instant is ISO 8601 with a zone (2027-01-31T00:00:00Z); a duration is a whole number of
s, m, h or d (90s, 15m, 12h, 30d).`;

/** The instant that --expires names, as ISO: a future instant, or a duration from `now`. */
const parseExpiry = (text: string, now: number): string => {
  const at = DURATION.test(text) ? now + parseDuration(text, "--expires") : parseInstant(text);
  if (Number.isNaN(at)) {
    throw new Error(
      `--expires must be an instant with a zone (2027-01-31T00:00:00Z) or a duration (90s, 15m, 12h, 30d), not '${text}'.`,
    );
  }
  if (at <= now) throw new Error(`--expires must be in the future; ${new Date(at).toISOString()} is not.`);
  return new Date(at).toISOString();
};

/** The scopes that --scope names, in a fixed order; throws for an unknown or empty one. */
const parseScopes = (text: string): Scope[] => {
  const named = text.split(",").map((scope) => scope.trim());
  const unknown = named.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0 || named.length === 0) {
    throw new Error(`--scope takes ${SCOPES.join(", ")} or both comma-separated, not '${text}'.`);
  }
  return SCOPES.filter((scope) => named.includes(scope));
};

const putRecord = (hash: string, record: ApiKeyRecord, target: Target) => {
  const text = JSON.stringify(record);
  // The record is also the metadata, so that `key:list` reads every record in one call.
  wrangler(["kv", "key", "put", ...BINDING, hash, text, "--metadata", text, ...targetArgs(target)]);
};

const readRecord = (hash: string, target: Target): ApiKeyRecord | undefined => {
  const found = wrangler(["kv", "key", "get", ...BINDING, hash, ...targetArgs(target)]).trim();
  return found === "Value not found" ? undefined : (JSON.parse(found) as ApiKeyRecord);
};

export const createKey = async (
  label: string,
  target: Target,
  limits: Pick<ApiKeyRecord, "scopes" | "expiresAt"> = {},
  now = clock(),
): Promise<string> => {
  const key = generateApiKey(target.env ?? "development");
  // A key with both scopes is written like one from before scopes: older code reads it alike.
  const scopes = limits.scopes && limits.scopes.length < SCOPES.length ? limits.scopes : undefined;
  putRecord(
    await hashApiKey(key),
    {
      label,
      createdAt: new Date(now).toISOString(),
      ...(scopes && { scopes }),
      ...(limits.expiresAt && { expiresAt: limits.expiresAt }),
    },
    target,
  );
  return key;
};

export const keyExists = async (key: string, target: Target): Promise<boolean> =>
  readRecord(await hashApiKey(key), target) !== undefined;

const hashOf = async (keyOrHash: string) => {
  const hash = API_KEY_PATTERN.test(keyOrHash) ? await hashApiKey(keyOrHash) : keyOrHash;
  if (!HASH_PATTERN.test(hash)) throw new Error("Pass the key itself, or the hash that key:list shows.");
  return hash;
};

const existingRecord = (hash: string, target: Target) => {
  const record = readRecord(hash, target);
  if (!record) throw new Error(`No key with hash ${hash} in ${describeTarget(target, "KV")}.`);
  return record;
};

/**
 * A new key with the old one's label and scopes; the old one then expires after the
 * overlap (or sooner, if it already did), so that its clients can switch without an outage.
 */
const rollKey = async (hash: string, overlapMs: number, expiresAt: string | undefined, target: Target, now: number) => {
  const old = existingRecord(hash, target);
  const oldEnd = old.expiresAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(old.expiresAt);
  if (!(now < oldEnd)) throw new Error(`The key with hash ${hash} has expired already: create a new one instead.`);
  const key = await createKey(old.label, target, { scopes: old.scopes, expiresAt }, now);
  const oldExpiry = Math.min(oldEnd, now + overlapMs);
  putRecord(hash, { ...old, expiresAt: new Date(oldExpiry).toISOString() }, target);
  return { key, oldExpiry };
};

const revokeKey = (hash: string, target: Target) => {
  existingRecord(hash, target);
  wrangler(["kv", "key", "delete", ...BINDING, hash, ...targetArgs(target)]);
};

/** Each key's last day of use, from D1 (src/key-last-used.ts); empty, with a note, if it cannot be read. */
const lastUsedDays = (target: Target): Map<string, string> => {
  try {
    const query = "select api_key_hash, day from api_key_last_used";
    const [result] = JSON.parse(wrangler(["d1", "execute", "DB", ...targetArgs(target), "--json", "--command", query]));
    return new Map(
      (result.results as { api_key_hash: string; day: string }[]).map((row) => [row.api_key_hash, row.day]),
    );
  } catch {
    console.error(
      `The days of last use could not be read from ${describeTarget(target, "D1")}: are its migrations applied?`,
    );
    return new Map();
  }
};

const listKeys = (target: Target): string[] => {
  const keys = JSON.parse(wrangler(["kv", "key", "list", ...BINDING, ...targetArgs(target)])) as {
    name: string;
    metadata?: ApiKeyRecord;
  }[];
  const lastUsed = lastUsedDays(target);
  const rows = [
    ["hash", "label", "scopes", "created", "expires", "last used"],
    ...keys.map(({ name, metadata }) => [
      name,
      metadata?.label ?? "?",
      (metadata?.scopes ?? SCOPES).join(","),
      metadata?.createdAt ?? "?",
      metadata?.expiresAt ?? "never",
      lastUsed.get(name) ?? "never",
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd(),
  );
};

/** The options each command takes beyond the target's. */
const COMMAND_OPTIONS: Record<string, string[]> = {
  create: ["scope", "expires"],
  roll: ["overlap", "expires"],
  list: [],
  revoke: [],
};

const main = async () => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      ...TARGET_OPTIONS,
      scope: { type: "string" },
      expires: { type: "string" },
      overlap: { type: "string" },
    },
  });
  const [command = "", argument, ...extra] = positionals;
  const allowed = COMMAND_OPTIONS[command];
  if (!allowed) throw new Error(USAGE);
  const misplaced = ["scope", "expires", "overlap"].filter((option) => option in values && !allowed.includes(option));
  if (misplaced.length > 0) throw new Error(`key:${command} does not take --${misplaced.join(", --")}.\n${USAGE}`);
  // Every command but list takes one argument: a label, or a key or its hash.
  if (extra.length > 0 || (command === "list") !== (argument === undefined)) throw new Error(USAGE);
  const target = targetFrom(values);
  const now = clock();
  /** An instant as ISO 8601, and when every isolate acts on a change made now, if that is later. */
  const everywhereBy = (instant: number) => {
    const seen = now + seenEverywhereAfterMs(target);
    return instant >= seen
      ? `at ${new Date(instant).toISOString()} in every isolate`
      : `at ${new Date(instant).toISOString()}, and in every isolate by ${new Date(seen).toISOString()} (an isolate acts on a changed key within ${seenEverywhereAfterMs(target) / 1000} s${target.remote ? ", KV's edge cache included" : ""})`;
  };
  const expiresAt = values.expires === undefined ? undefined : parseExpiry(values.expires, now);
  switch (command) {
    case "create": {
      const label = argument?.trim();
      if (!label) throw new Error(`key:create needs a label.\n${USAGE}`);
      const scopes = values.scope === undefined ? undefined : parseScopes(values.scope);
      const key = await createKey(label, target, { scopes, expiresAt }, now);
      console.error(
        `Created the key "${label}" (${(scopes ?? SCOPES).join(", ")}; expires ${expiresAt ?? "never"}) for ${describeTarget(target, "KV")}. It is shown once, below:`,
      );
      console.log(key);
      return;
    }
    case "roll": {
      const overlapMs = parseDuration(values.overlap ?? DEFAULT_OVERLAP, "--overlap");
      const { key, oldExpiry } = await rollKey(await hashOf(argument ?? ""), overlapMs, expiresAt, target, now);
      console.error(
        `Rolled the key: the old one stops working ${everywhereBy(oldExpiry)}; switch its clients to the new one, shown once, below:`,
      );
      console.log(key);
      return;
    }
    case "list":
      for (const line of listKeys(target)) console.log(line);
      return;
    case "revoke": {
      const hash = await hashOf(argument ?? "");
      revokeKey(hash, target);
      console.error(
        `Revoked the key with hash ${hash} in ${describeTarget(target, "KV")}: it stops working ${everywhereBy(now)}.`,
      );
      return;
    }
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
