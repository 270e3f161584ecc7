import { BoundedCache } from "../lib/bounded-cache";
import { CURSOR_SHAPE, type PetStatus } from "../schemas";
import { Refusal } from "./refusal";

// A pagination cursor is opaque to clients: the last id of the page it follows and
// the status filter it belongs to, signed with HMAC-SHA-256 so that a cursor that
// was altered, forged or taken from another filter is refused.

type CursorPosition = { afterId: number; status: PetStatus | undefined };

/**
 * CURSOR_SECRET signs new cursors. During a rotation, CURSOR_SECRET_PREVIOUS (the
 * secret being replaced) still verifies the cursors already handed out.
 */
export type CursorSecrets = { CURSOR_SECRET?: string; CURSOR_SECRET_PREVIOUS?: string };

/** HMAC-SHA-256 keys shorter than the hash's 32 bytes weaken it (RFC 2104, section 3). */
export const MIN_SECRET_BYTES = 32;

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

const signingKey = (secret: string) => {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
};

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (character) => character.charCodeAt(0));

const payloadOf = ({ afterId, status }: CursorPosition) => `1.${afterId}.${status ?? ""}`;

// A deployment without a usable secret fails here, on the first listing that needs it,
// with a log line that names the problem (never the value). UTF-8 takes at least a byte
// per UTF-16 code unit, so only a short string is encoded to count its bytes.
const usable = (name: keyof CursorSecrets, secret: string | undefined) => {
  if (!secret || (secret.length < MIN_SECRET_BYTES && encoder.encode(secret).length < MIN_SECRET_BYTES)) {
    throw new Error(
      `${name} is missing or shorter than ${MIN_SECRET_BYTES} bytes: set it (docs/operations.md, "The first deploy of an environment").`,
    );
  }
  return secret;
};

/**
 * Cursors signed before, by position, with the secret that signed them: a full page
 * answered from the isolate's memory links to the same next cursor every time, and
 * need not pay an HMAC for it each time.
 */
const signedCursors = new BoundedCache<string, { secret: string; cursor: string }>({ share: "cursors" });

export const writeCursor = async (secrets: CursorSecrets, position: CursorPosition): Promise<string> => {
  const secret = usable("CURSOR_SECRET", secrets.CURSOR_SECRET);
  const text = payloadOf(position);
  const known = signedCursors.get(text);
  if (known?.secret === secret) return known.cursor;
  const payload = encoder.encode(text);
  const signature = await crypto.subtle.sign("HMAC", await signingKey(secret), payload);
  const cursor = `${toBase64Url(payload)}.${toBase64Url(new Uint8Array(signature))}`;
  signedCursors.set(text, { secret, cursor });
  return cursor;
};

const verifies = async (secret: string, signature: Uint8Array, payload: Uint8Array) =>
  crypto.subtle.verify("HMAC", await signingKey(secret), signature, payload);

let reportedPreviousSecret = false;

/**
 * CURSOR_SECRET_PREVIOUS when a rotation is under way (empty, wrangler.toml's local
 * default, means none). One too short to be a secret is ignored, and logged once per
 * isolate: a client's cursor is never a 500 for it (the deploy refuses it, too).
 */
const previousSecret = (secrets: CursorSecrets): string | undefined => {
  const previous = secrets.CURSOR_SECRET_PREVIOUS;
  if (!previous) return undefined;
  if (encoder.encode(previous).length >= MIN_SECRET_BYTES) return previous;
  if (!reportedPreviousSecret) {
    reportedPreviousSecret = true;
    const message = `CURSOR_SECRET_PREVIOUS is shorter than ${MIN_SECRET_BYTES} bytes: ignored, so cursors signed with it are refused`;
    console.error(JSON.stringify({ level: "error", message }));
  }
  return undefined;
};

const PAYLOAD_SHAPE = /^1\.([1-9][0-9]{0,15})\.([a-z]*)$/;

// Worded for any door: a query parameter at /v1, a tool's argument at /mcp, each named cursor.
const invalidCursor = (reason: string) => new Refusal("invalid_request", `The value of 'cursor' ${reason}.`);

/** The id a page starts after, for a cursor that this service signed for the same filter. */
export const readCursor = async (
  secrets: CursorSecrets,
  cursor: string,
  status: PetStatus | undefined,
): Promise<number> => {
  if (!CURSOR_SHAPE.test(cursor)) throw invalidCursor("is not a cursor this service issued");
  const [payloadText = "", signatureText = ""] = cursor.split(".");
  let payload: Uint8Array;
  try {
    payload = fromBase64Url(payloadText);
  } catch {
    throw invalidCursor("is not a cursor this service issued");
  }
  const signature = fromBase64Url(signatureText);
  // One encoding only: base64's last character has bits that decoding drops, so "I" and
  // "J" can read alike; a cursor that is not exactly as issued is altered.
  if (toBase64Url(payload) !== payloadText || toBase64Url(signature) !== signatureText) {
    throw invalidCursor("is not a cursor this service issued");
  }
  const previous = previousSecret(secrets);
  const valid =
    (await verifies(usable("CURSOR_SECRET", secrets.CURSOR_SECRET), signature, payload)) ||
    (previous !== undefined && (await verifies(previous, signature, payload)));
  const fields = valid ? PAYLOAD_SHAPE.exec(new TextDecoder().decode(payload)) : null;
  if (!fields) throw invalidCursor("is not a cursor this service issued");
  if ((fields[2] || undefined) !== status) throw invalidCursor("belongs to a listing with another status filter");
  return Number(fields[1]);
};
