import { ApiError } from "./errors";
import type { PetStatus } from "./schemas";

// A pagination cursor is opaque to clients: the last id of the page it follows and
// the status filter it belongs to, signed with HMAC-SHA-256 so that a cursor that
// was altered, forged or taken from another filter is refused.

type CursorPosition = { afterId: number; status: PetStatus | undefined };

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

const requireSecret = (secret: string) => {
  if (!secret) throw new Error("CURSOR_SECRET is not set: see the README, Deploying.");
  return secret;
};

export const writeCursor = async (secret: string, position: CursorPosition): Promise<string> => {
  const payload = encoder.encode(payloadOf(position));
  const signature = await crypto.subtle.sign("HMAC", await signingKey(requireSecret(secret)), payload);
  return `${toBase64Url(payload)}.${toBase64Url(new Uint8Array(signature))}`;
};

const CURSOR_SHAPE = /^[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{43}$/;
const PAYLOAD_SHAPE = /^1\.([1-9][0-9]{0,15})\.([a-z]*)$/;

const invalidCursor = (reason: string) => new ApiError("invalid_request", `Query parameter 'cursor' ${reason}.`);

/** The id a page starts after, for a cursor that this service signed for the same filter. */
export const readCursor = async (secret: string, cursor: string, status: PetStatus | undefined): Promise<number> => {
  if (!CURSOR_SHAPE.test(cursor)) throw invalidCursor("is not a cursor this service issued");
  const [payloadText = "", signatureText = ""] = cursor.split(".");
  let payload: Uint8Array;
  try {
    payload = fromBase64Url(payloadText);
  } catch {
    throw invalidCursor("is not a cursor this service issued");
  }
  const valid = await crypto.subtle.verify(
    "HMAC",
    await signingKey(requireSecret(secret)),
    fromBase64Url(signatureText),
    payload,
  );
  const fields = valid ? PAYLOAD_SHAPE.exec(new TextDecoder().decode(payload)) : null;
  if (!fields) throw invalidCursor("is not a cursor this service issued");
  if ((fields[2] || undefined) !== status) throw invalidCursor("belongs to a listing with another status filter");
  return Number(fields[1]);
};
