import type { ApiKeyRecord } from "./api-keys";
import type { RequestDatabase } from "./db/client";
import type { ErrorCode } from "./error-codes";

/** Variables are read with `c.get(name)`: `c.var` builds an object of them all on every read. */
export type AppEnv = {
  Bindings: CloudflareBindings;
  Variables: {
    /** The caller's key record, and the key's hash: the caller's identity for rate limits and idempotency. */
    apiKey: ApiKeyRecord & { hash: string };
    /** The request's D1 session, opened on first query (cache hits never open one). */
    db: RequestDatabase;
    requestId: string;
    /** The code of an error answer, for the log line (src/errors.ts writes every error body). */
    errorCode: ErrorCode;
    /** Whether a read of pets was answered from this isolate's memory (src/pet-cache.ts). */
    isolateCache: "hit" | "miss";
  };
};
