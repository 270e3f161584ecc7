// What a caller of the client sees: its options, its methods, what they return.
import type { DeprecationWarning } from "./answer.js";
import type { Fetch } from "./attempt.js";
import type { ListPetsQuery, NewPet, Pet } from "./wire.js";

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
  /** The largest answer the client reads; past it, it stops reading and throws (default 1,048,576 bytes). */
  maxResponseBytes?: number;
  /** Follow redirects, which the API never sends (default false: a redirect is an ApiError). */
  followRedirects?: boolean;
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
