/**
 * The app's Hono environment: the Worker's bindings. Each request variable is declared by the
 * concern that sets it, beside the code that sets it, as Hono's `ContextVariableMap` (so that no
 * concern imports this file's neighbours for a type): `requestId` (src/http/request-log.ts),
 * `errorCode` (src/http/errors.ts), `apiKey` (src/http/api-key-auth.ts), `db`
 * (src/http/begin-call.ts) and `isolateCache` (src/rest/routes.ts); none in the core, which
 * knows no door. Variables are read with `c.get(name)`: `c.var` builds
 * an object of them all on every read.
 */
export type AppEnv = { Bindings: CloudflareBindings };
