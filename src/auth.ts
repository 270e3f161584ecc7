import { createMiddleware } from "hono/factory";
import { API_KEY_PATTERN, type ApiKeyRecord, hashApiKey } from "./api-keys";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";

// RFC 6750: the scheme is case-insensitive and the token is a b64token.
const BEARER = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i;
const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="petstore"' };

const unauthorized = (message: string) => new ApiError("unauthorized", message, CHALLENGE);

/**
 * Runs before any validation or database work. A token that cannot be one of our
 * keys is refused without a KV read.
 */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization");
  if (!header) throw unauthorized("Send an API key as 'Authorization: Bearer <key>'.");
  const token = BEARER.exec(header)?.[1];
  if (!token) throw unauthorized("The Authorization header must be 'Bearer <key>'.");
  const record = API_KEY_PATTERN.test(token)
    ? await c.env.API_KEYS.get<ApiKeyRecord>(await hashApiKey(token), "json")
    : null;
  if (!record) throw unauthorized("The API key is not valid.");
  c.set("apiKey", record);
  await next();
});
