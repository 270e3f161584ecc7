// The client of the petstore edge API: one method per operation, and the service's
// guarantees kept on the caller's behalf (client/README.md).
import { apiError, type DeprecationWarning, deprecationOf, linkTarget, newerBookmark, parseJson } from "./answer.js";
import { attempt, type Fetch } from "./attempt.js";
import { NetworkError, TimeoutError } from "./errors.js";
import { backoffMs, RETRIED_STATUSES, retryAfterMs, sleep } from "./retry.js";
import type { ListPetsQuery, NewPet, Pet } from "./wire.js";

export type { DeprecationWarning } from "./answer.js";
export type { ErrorCode } from "./errors.js";
export { ApiError, NetworkError, TimeoutError } from "./errors.js";
export type { ListPetsQuery, NewPet, Pet, PetStatus } from "./wire.js";

export type ClientOptions = {
  /** The API's base address, with `/v1`: `https://petstore-production.<account>.workers.dev/v1`. */
  baseUrl: string;
  apiKey: string;
  /** The fetch to send with (default: the global one). */
  fetch?: Fetch;
  /** Attempts after the first, for 429, 502, 503, 504, timeouts and failed connections (default 2). */
  maxRetries?: number;
  /** Each attempt's limit, the body included (default 10,000 ms). */
  timeoutMs?: number;
  /** The longest Retry-After the client waits; past it the error is thrown at once (default 10,000 ms). */
  maxRetryWaitMs?: number;
  /** A bookmark to start from: `bookmark` of a client elsewhere, to read what it wrote. */
  bookmark?: string;
  /** Called once per deprecated operation that the client calls (default: console.warn). */
  onWarning?: (warning: DeprecationWarning) => void;
  /** How the client waits between attempts (default: a timer); a test hands in its own clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

export type CallOptions = { signal?: AbortSignal };
export type PetPage = {
  pets: Pet[];
  /** The next page's cursor (from `Link: rel="next"`), undefined on the last page. */
  nextCursor?: string;
};

export interface PetstoreClient {
  /** One page of pets, by ascending id. */
  listPets(query?: ListPetsQuery, options?: CallOptions): Promise<PetPage>;
  /** Every pet of every page, each once, by ascending id. */
  listAllPets(query?: Omit<ListPetsQuery, "cursor">, options?: CallOptions): AsyncIterable<Pet>;
  /** Creates a pet, safe to retry: every attempt sends the same Idempotency-Key. */
  createPet(pet: NewPet, options?: CallOptions & { idempotencyKey?: string }): Promise<Pet>;
  /**
   * One pet by id.
   * @deprecated Removed on 5 December 2030 (Thu, 05 Dec 2030 00:00:00 GMT): use `listPets` with `status`.
   */
  getPet(petId: number, options?: CallOptions): Promise<Pet>;
  /** The newest `x-d1-bookmark` seen: hand it to a client elsewhere as its `bookmark`. */
  readonly bookmark: string | undefined;
}

type Call = { operation: string; method?: string; body?: unknown; headers?: Record<string, string> } & CallOptions;

const randomKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");

export const createClient = (options: ClientOptions): PetstoreClient => {
  const base = new URL(options.baseUrl).href.replace(/\/$/, "");
  const { apiKey, maxRetries = 2, timeoutMs = 10_000, maxRetryWaitMs = 10_000, sleep: wait = sleep } = options;
  const onWarning = options.onWarning ?? ((warning: DeprecationWarning) => console.warn(warning.message));
  const fetcher: Fetch = options.fetch ?? ((input, init) => fetch(input, init));
  let bookmark = newerBookmark(undefined, options.bookmark ?? null);
  const warned = new Set<string>();

  /** Sends with retries; resolves to the 2xx answer and its JSON body. */
  const send = async (path: string, { operation, method = "GET", body, headers, signal }: Call) => {
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
        const { response, text } = await attempt(fetcher, url, init, timeoutMs, signal);
        bookmark = newerBookmark(bookmark, response.headers.get("x-d1-bookmark"));
        const warning = deprecationOf(operation, response, url);
        if (warning && !warned.has(operation)) {
          warned.add(operation);
          onWarning(warning);
        }
        const json = parseJson(text);
        if (response.ok && json !== undefined) return { response, json };
        failure = apiError(response, text);
        if (!RETRIED_STATUSES.includes(response.status)) throw failure;
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

  const listPets = async ({ limit, status, cursor }: ListPetsQuery = {}, { signal }: CallOptions = {}) => {
    const query = new URLSearchParams();
    if (limit !== undefined) query.set("limit", String(limit));
    if (status !== undefined) query.set("status", status);
    if (cursor !== undefined) query.set("cursor", cursor);
    const search = query.toString();
    const { response, json } = await send(`/pets${search ? `?${search}` : ""}`, { operation: "listPets", signal });
    const next = linkTarget(response.headers.get("Link"), "next", response.url || base);
    return { pets: json as Pet[], nextCursor: next?.searchParams.get("cursor") ?? undefined };
  };

  return {
    listPets,
    async *listAllPets(query = {}, options = {}) {
      let cursor: string | undefined;
      do {
        const page = await listPets({ ...query, cursor }, options);
        yield* page.pets;
        cursor = page.nextCursor;
      } while (cursor);
    },
    createPet: async (pet, { idempotencyKey = randomKey(), signal } = {}) =>
      (
        await send("/pets", {
          operation: "createPet",
          method: "POST",
          body: pet,
          headers: { "Idempotency-Key": idempotencyKey },
          signal,
        })
      ).json as Pet,
    getPet: async (petId, { signal } = {}) =>
      (await send(`/pets/${encodeURIComponent(petId)}`, { operation: "getPet", signal })).json as Pet,
    get bookmark() {
      return bookmark;
    },
  };
};
