// The client of the petstore edge API: one method per operation, and the service's
// guarantees kept on the caller's behalf (client/README.md).
import { apiError, type DeprecationWarning, deprecationOf, newerBookmark, parseJson } from "./answer.js";
import { attempt, type Fetch } from "./attempt.js";
import { checkIdempotencyKey, checkOptions, isPet, isPetList } from "./checks.js";
import { ApiError, NetworkError, TimeoutError, withoutKey } from "./errors.js";
import { linkTarget } from "./link.js";
import { backoffMs, RETRIED_STATUSES, retryAfterMs, sleep } from "./retry.js";
import type { CallOptions, ClientOptions, PetstoreClient } from "./types.js";
import type { ListPetsQuery, Pet } from "./wire.js";

export type { DeprecationWarning } from "./answer.js";
export type { ErrorCode } from "./errors.js";
export { ApiError, NetworkError, TimeoutError } from "./errors.js";
export type { CallOptions, ClientOptions, PetPage, PetstoreClient } from "./types.js";
export type { ListPetsQuery, NewPet, Pet, PetStatus } from "./wire.js";

type Call = {
  operation: string;
  /** What the 2xx answer's body must be, and what it is called in the error when it is not. */
  expect: readonly [(json: unknown) => boolean, string];
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
} & CallOptions;

const randomKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");

export const createClient = (options: ClientOptions): PetstoreClient => {
  const base = checkOptions(options).href.replace(/\/$/, "");
  const { apiKey, maxRetries = 2, maxRetryWaitMs = 10_000, sleep: wait = sleep } = options;
  const limits = {
    timeoutMs: options.timeoutMs ?? 10_000,
    maxResponseBytes: options.maxResponseBytes ?? 1_048_576,
    followRedirects: options.followRedirects === true,
  };
  const onWarning = options.onWarning ?? ((warning: DeprecationWarning) => console.warn(warning.message));
  const fetcher: Fetch = options.fetch ?? ((input, init) => fetch(input, init));
  let bookmark = newerBookmark(undefined, options.bookmark ?? null);
  const warned = new Set<string>();

  /**
   * Sends with retries; resolves to the 2xx answer and its JSON body, of the shape expected.
   * A 2xx of another shape is retried like a fault in front of the API: for a create, whose
   * answer was lost on the way, the retry's same Idempotency-Key gets the pet it made.
   */
  const send = (path: string, call: Call) =>
    sendAttempts(path, call).catch((error: unknown) => {
      throw withoutKey(error, apiKey);
    });
  const sendAttempts = async (path: string, { operation, expect, method = "GET", body, headers, signal }: Call) => {
    const url = `${base}${path}`;
    for (let attemptIndex = 0; ; attemptIndex++) {
      let failure: Error;
      let delay = backoffMs(attemptIndex);
      try {
        const init: RequestInit = {
          method,
          headers: {
            Authorization: `Bearer ${apiKey}`,
            ...(bookmark && { "x-d1-bookmark": bookmark }),
            ...(body !== undefined && { "Content-Type": "application/json" }),
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        };
        const { response, text } = await attempt(fetcher, url, init, limits, signal);
        bookmark = newerBookmark(bookmark, response.headers.get("x-d1-bookmark"));
        const warning = deprecationOf(operation, response, url);
        if (warning && !warned.has(operation)) {
          warned.add(operation);
          onWarning(warning);
        }
        const json = parseJson(text);
        const [isExpected, expected] = expect;
        if (response.ok && isExpected(json)) return { response, json };
        const requestId = response.headers.get("X-Request-Id") ?? undefined;
        failure = response.ok
          ? new ApiError(response.status, "unexpected_response", `The answer is not ${expected}.`, requestId, undefined)
          : apiError(response, text);
        if (!response.ok && !RETRIED_STATUSES.includes(response.status)) throw failure;
        const after = retryAfterMs(response.headers.get("Retry-After"));
        if (after !== undefined && after > maxRetryWaitMs) throw failure;
        delay += after ?? 0;
      } catch (error) {
        if (!(error instanceof NetworkError || error instanceof TimeoutError)) throw error;
        failure = error;
      }
      if (attemptIndex >= maxRetries) throw failure;
      await wait(delay, signal);
    }
  };

  const listPets = async (query: ListPetsQuery = {}, { signal }: CallOptions = {}) => {
    const { limit, status, cursor } = query;
    // The last page's nextCursor is undefined: given on, it would silently start over.
    if ("cursor" in query && cursor === undefined)
      throw new TypeError("cursor is undefined: the page before was the last.");
    const search = new URLSearchParams();
    if (limit !== undefined) search.set("limit", String(limit));
    if (status !== undefined) search.set("status", status);
    if (cursor !== undefined) search.set("cursor", cursor);
    const { response, json } = await send(`/pets${search.toString() ? `?${search}` : ""}`, {
      operation: "listPets",
      expect: [isPetList, "a list of pets"],
      signal,
    });
    const next = linkTarget(response.headers.get("Link"), "next", `${base}/pets`);
    const nextCursor = next?.searchParams.get("cursor") ?? undefined;
    // A next link that is not a URL, or has no cursor, would end the walk early without a word.
    if (next === null || (next && nextCursor === undefined)) {
      const requestId = response.headers.get("X-Request-Id") ?? undefined;
      throw withoutKey(
        new ApiError(response.status, "unexpected_response", "The next link is not the API's.", requestId, undefined),
        apiKey,
      );
    }
    return { pets: json as Pet[], nextCursor };
  };

  const outOfOrder = (message: string) => new ApiError(200, "unexpected_response", message, undefined, undefined);

  /** The error of a failed create, with the key that a second call must send to get the same pet. */
  const withKey = (error: unknown, idempotencyKey: string) => {
    if (error instanceof ApiError || error instanceof NetworkError || error instanceof TimeoutError)
      error.idempotencyKey = idempotencyKey;
    return error;
  };

  return {
    listPets,
    // The API lists by ascending id, and a page that points on is never empty: a walk holds
    // the last id and the cursors it followed, and ends (or throws) however an answer tries
    // to keep it going.
    async *listAllPets(query = {}, options = {}) {
      let lastId = 0;
      // Each cursor is followed once: one sent again would walk in a circle, new ids or not.
      const followed = new Set<string>();
      let page = await listPets(query, options);
      for (;;) {
        for (const pet of page.pets) {
          if (pet.id <= lastId) throw outOfOrder("The API sent a pet again or out of order: the walk cannot go on.");
          lastId = pet.id;
          yield pet;
        }
        const cursor = page.nextCursor;
        if (cursor === undefined) return;
        if (page.pets.length === 0) throw outOfOrder("The API sent an empty page that points to another.");
        if (followed.has(cursor))
          throw outOfOrder("The API sent a next link it had sent before: the walk cannot go on.");
        followed.add(cursor);
        page = await listPets({ ...query, cursor }, options);
      }
    },
    createPet: async (pet, { idempotencyKey = randomKey(), signal } = {}) => {
      checkIdempotencyKey(idempotencyKey);
      try {
        const headers = { "Idempotency-Key": idempotencyKey };
        const call = {
          operation: "createPet",
          expect: [isPet, "a pet"],
          method: "POST",
          body: pet,
          headers,
          signal,
        } as const;
        return (await send("/pets", call)).json as Pet;
      } catch (error) {
        throw withKey(error, idempotencyKey);
      }
    },
    getPet: async (petId, { signal } = {}) =>
      (await send(`/pets/${encodeURIComponent(petId)}`, { operation: "getPet", expect: [isPet, "a pet"], signal }))
        .json as Pet,
    get bookmark() {
      return bookmark;
    },
  };
};
