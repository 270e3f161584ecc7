// The pool's internal module (node_modules/@cloudflare/vitest-plugin/dist/worker/lib/cloudflare/
// test-internal.mjs), of which test/helpers/settle-deferred-work.ts uses one function.
declare module "cloudflare:test-internal" {
  /** Waits for every waitUntil promise registered so far, in any context, for at most 30 s; rethrows their rejections. */
  export function waitForGlobalWaitUntil(): Promise<void>;
}
