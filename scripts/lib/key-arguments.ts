// What `npm run key:<command>` was asked to do, checked whole before anything is read or
// written: the command, its argument, its options, the target and the clock.
import { API_KEY_PATTERN, hashApiKey, isScope, SCOPES, type Scope } from "../../src/keys/api-key";
import { parseInstant } from "../../src/lib/dates";
import { excerpt, hasVisibleCharacter } from "../../src/lib/display-text";
import { DURATION, MAX_DURATION, parseDuration } from "./duration";
import { GRANT_ID } from "./key-grants";
import { nearest, parseOptions } from "./options";
import { TARGET_OPTIONS, type Target, targetFrom } from "./target";

export type KeyCommand =
  | { name: "create"; label: string; scopes?: Scope[]; expiresAt?: string }
  | { name: "roll"; hash: string; overlapMs: number; expiresAt?: string }
  | { name: "list" }
  | { name: "revoke"; hash: string }
  | { name: "grants"; hash: string; revoke?: string };

const HASH_PATTERN = /^[0-9a-f]{64}$/;
const DEFAULT_OVERLAP = "24h";
/**
 * A label: 1 to 100 characters (Unicode code points), none of them a control, format or
 * line or paragraph separator character, so that it prints as one plain cell of key:list
 * and its record stays within KV's 1,024 bytes of metadata; and, as a pet's name, with a
 * visible one, so that no label looks blank (U+3164, U+2800, spaces alone).
 */
export const LABEL_MAX = 100;
const LABEL = new RegExp(`^[^\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]{1,${LABEL_MAX}}$`, "u");
const isLabel = (text: string) => LABEL.test(text) && hasVisibleCharacter(text);

export const USAGE = `Usage:
  npm run --silent key:create -- <label> [--scope read|write|read,write] [--expires <instant or duration>]
  npm run --silent key:roll   -- <key or hash> [--overlap <duration, default ${DEFAULT_OVERLAP}>] [--expires <instant or duration>]
  npm run --silent key:list
  npm run --silent key:revoke -- <key or hash>
  npm run --silent key:grants -- <key or hash> [--revoke <grant id>|all]
each with [--env staging|production --remote | --persist-to DIR].
A label is 1 to ${LABEL_MAX} characters with a visible one, without control or format characters.
An instant is ISO 8601 with a zone (2027-01-31T00:00:00Z); a duration is a whole number of
s, m, h or d (90s, 15m, 12h, 30d). --expires is at most ${MAX_DURATION.expires} away, --overlap at most ${MAX_DURATION.overlap}.`;

/**
 * The scripts' clock: now, or the instant in PETSTORE_NOW (ISO 8601), which tests hand
 * over so that a key's expiry or a roll's overlap can be over without waiting for it.
 */
export const clock = (handed = process.env.PETSTORE_NOW): number => {
  if (!handed) return Date.now();
  const instant = parseInstant(handed);
  if (Number.isNaN(instant)) throw new Error(`PETSTORE_NOW must be an instant with a zone, not '${handed}'.`);
  return instant;
};

/** The instant that --expires names, as ISO: a future instant, or a duration from `now`. */
const parseExpiry = (text: string, now: number): string => {
  const longest = parseDuration(MAX_DURATION.expires, "--expires", MAX_DURATION.expires);
  const at = DURATION.test(text) ? now + parseDuration(text, "--expires", MAX_DURATION.expires) : parseInstant(text);
  if (Number.isNaN(at)) {
    throw new Error(
      `--expires must be an instant with a zone (2027-01-31T00:00:00Z) or a duration (90s, 15m, 12h, 30d), not '${text}'.`,
    );
  }
  if (at <= now) throw new Error(`--expires must be in the future; ${new Date(at).toISOString()} is not.`);
  if (at > now + longest) throw new Error(`--expires must be at most ${MAX_DURATION.expires} away, not '${text}'.`);
  return new Date(at).toISOString();
};

/** The scopes that --scope names, in a fixed order; throws for an unknown or empty one. */
const parseScopes = (text: string): Scope[] => {
  const named = text.split(",").map((scope) => scope.trim());
  const unknown = named.filter((scope) => !isScope(scope));
  if (unknown.length > 0 || named.length === 0) {
    const near = unknown[0] === undefined ? undefined : nearest(unknown[0], SCOPES);
    throw new Error(
      `--scope takes ${SCOPES.join(", ")} or both comma-separated, not '${excerpt(text)}'${near ? `: did you mean ${near}?` : "."}`,
    );
  }
  return SCOPES.filter((scope) => named.includes(scope));
};

/** The hash under which KV keeps a key's record: of the key given, or the hash itself. */
const hashOf = async (keyOrHash = "") => {
  const hash = API_KEY_PATTERN.test(keyOrHash) ? await hashApiKey(keyOrHash) : keyOrHash;
  if (!HASH_PATTERN.test(hash)) throw new Error("Pass the key itself, or the hash that key:list shows.");
  return hash;
};

/** The options each command takes beyond the target's. */
const COMMAND_OPTIONS: Record<KeyCommand["name"], string[]> = {
  create: ["scope", "expires"],
  roll: ["overlap", "expires"],
  list: [],
  revoke: [],
  grants: ["revoke"],
};

/** The command that `args` (what follows `keys.ts`) name, its target, and the clock's now; throws if any is wrong. */
export const parseKeyArguments = async (
  args: string[],
  now: number,
): Promise<{ command: KeyCommand; target: Target }> => {
  const { positionals, values } = parseOptions(
    {
      args,
      allowPositionals: true,
      options: {
        ...TARGET_OPTIONS,
        scope: { type: "string" },
        expires: { type: "string" },
        overlap: { type: "string" },
        revoke: { type: "string" },
      },
    },
    USAGE,
  );
  const [name = "", argument, ...extra] = positionals;
  const allowed = COMMAND_OPTIONS[name as KeyCommand["name"]];
  if (!allowed) {
    const near = nearest(name, Object.keys(COMMAND_OPTIONS));
    throw new Error(
      `There is no key command '${excerpt(name)}'${near ? `: did you mean key:${near}?` : "."}\n${USAGE}`,
    );
  }
  const misplaced = ["scope", "expires", "overlap", "revoke"].filter(
    (option) => option in values && !allowed.includes(option),
  );
  if (misplaced.length > 0) throw new Error(`key:${name} does not take --${misplaced.join(", --")}.\n${USAGE}`);
  // Every command but list takes one argument: a label, or a key or its hash.
  const wants = name === "create" ? "a label (what the key is for)" : "the key, or its hash as key:list shows it";
  if (name !== "list" && argument === undefined) throw new Error(`key:${name} needs ${wants}.\n${USAGE}`);
  if (name === "list" && argument !== undefined) {
    throw new Error(`key:list takes no argument, and was given '${excerpt(argument)}'.\n${USAGE}`);
  }
  if (extra.length > 0) {
    throw new Error(
      `key:${name} takes one argument, and was given ${extra.length + 1}: quote a label with spaces ("billing service").\n${USAGE}`,
    );
  }
  const target = targetFrom(values);
  const expiresAt = values.expires === undefined ? undefined : parseExpiry(values.expires, now);
  switch (name) {
    case "create": {
      const label = argument?.trim() ?? "";
      if (!isLabel(label)) {
        throw new Error(
          `key:create needs a label of 1 to ${LABEL_MAX} characters with a visible one, without control or format characters.\n${USAGE}`,
        );
      }
      const scopes = values.scope === undefined ? undefined : parseScopes(values.scope);
      return { command: { name, label, scopes, expiresAt }, target };
    }
    case "roll": {
      const overlapMs = parseDuration(values.overlap ?? DEFAULT_OVERLAP, "--overlap", MAX_DURATION.overlap);
      if (expiresAt !== undefined && Date.parse(expiresAt) <= now + overlapMs) {
        throw new Error(`--expires must be after the overlap ends (${new Date(now + overlapMs).toISOString()}).`);
      }
      return { command: { name, hash: await hashOf(argument), overlapMs, expiresAt }, target };
    }
    case "revoke":
      return { command: { name, hash: await hashOf(argument) }, target };
    case "grants": {
      const revoke = values.revoke;
      if (revoke !== undefined && revoke !== "all" && !GRANT_ID.test(revoke)) {
        throw new Error(`--revoke takes a grant id that key:grants lists, or all; not '${revoke}'.`);
      }
      return { command: { name, hash: await hashOf(argument), revoke }, target };
    }
    default:
      return { command: { name: "list" }, target };
  }
};
