// The sign-in Worker's entry (wrangler.auth.toml's main): ./worker.ts, re-exported from
// JavaScript. `wrangler dev` holds every Worker whose entry is TypeScript to the one
// worker-configuration.d.ts, which has the API's bindings, so with a TypeScript entry here
// `npm run dev` warned on every start that the types might be out of date, while
// `npm run typecheck` found them current.
export { default } from "./worker.ts";
