/**
 * The sign-in Worker's bindings (wrangler.auth.toml): its own KV of grants and tokens, and the
 * API's KV of keys and its throttle on unknown keys, which it shares (docs/operations.md).
 */
export type AuthEnv = {
  OAUTH_KV: KVNamespace;
  API_KEYS: KVNamespace;
  AUTH_FAILURE_LIMITER: RateLimit;
};

/** What a grant carries to every call made with its tokens: the key it was signed in with. */
export type GrantProps = { keyHash: string };
