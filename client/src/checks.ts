// What the client checks before it sends anything, and of every answer before it returns
// it: a caller gets a TypeError for a mistake of its own at once, never a request, and an
// answer of the wrong shape is an ApiError, never a null where the types promise a pet.
import { BOOKMARK, IDEMPOTENCY_KEY, PET_STATUSES, type Pet } from "./wire.js";

/** A key as the API issues them (docs/keys.md): with its checksum, or from before checksums. */
const API_KEY = /^ps_(live|test)_[0-9A-Za-z]{43}(?:[0-9A-Za-z]{6})?$/;

const refuse = (message: string): never => {
  throw new TypeError(message);
};

const isCount = (value: unknown, least: number) =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= least;

/** Throws a TypeError naming the first option that is missing or malformed; never quotes the key. */
export const checkOptions = (options: Record<string, unknown>) => {
  const { baseUrl, apiKey, bookmark } = options;
  const url = typeof baseUrl === "string" ? safeUrl(baseUrl) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) {
    refuse("baseUrl must be the API's http(s) address with /v1, without credentials, query or fragment.");
  }
  if (typeof apiKey !== "string" || !apiKey) refuse("apiKey is missing: give the API key to send.");
  if (!API_KEY.test(apiKey as string)) {
    refuse(
      "apiKey is not an API key: ps_live_ or ps_test_, then 43 or 49 letters and digits (check for spaces or line breaks).",
    );
  }
  for (const [name, least] of [
    ["maxRetries", 0],
    ["timeoutMs", 1],
    ["maxRetryWaitMs", 0],
    ["maxResponseBytes", 1],
  ] as const) {
    if (options[name] !== undefined && !isCount(options[name], least))
      refuse(`${name} must be a whole number, at least ${least}.`);
  }
  for (const name of ["fetch", "onWarning", "sleep"]) {
    if (options[name] !== undefined && typeof options[name] !== "function") refuse(`${name} must be a function.`);
  }
  if (bookmark !== undefined && (typeof bookmark !== "string" || !BOOKMARK.test(bookmark))) {
    refuse("bookmark must be the client's bookmark of an earlier answer, as it gave it.");
  }
  return url as URL;
};

const safeUrl = (text: string) => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

export const checkIdempotencyKey = (key: unknown) => {
  if (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key)) {
    refuse("idempotencyKey must be 1 to 255 printable ASCII characters, bare or as a quoted string (RFC 8941).");
  }
};

const isId = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0;

/** Whether `value` is a pet as the API's document describes one. */
export const isPet = (value: unknown): value is Pet => {
  const pet = value as Pet | null;
  return (
    typeof pet === "object" &&
    pet !== null &&
    isId(pet.id) &&
    typeof pet.name === "string" &&
    isId(pet.categoryId) &&
    PET_STATUSES.includes(pet.status)
  );
};

export const isPetList = (value: unknown): value is Pet[] => Array.isArray(value) && value.every(isPet);
