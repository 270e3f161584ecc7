// Wraps an env's D1, KV and rate-limit bindings so that a test sees, and may fail, each
// call that goes to storage: a D1 statement's first/all/run/raw, a batch (however many
// statements it holds), an exec; each KV get/getWithMetadata/put/list/delete; each
// limit(). Building statements (prepare, bind) and reading a session's bookmark go to
// no storage and pass untouched. The real bindings do the work: nothing is mocked.

export type StorageCall = {
  /** "DB" for a call to any D1 database of pets: DB itself, or a later segment (`segment` says which). */
  binding: "DB" | "API_KEYS" | "RATE_LIMITER" | "AUTH_FAILURE_LIMITER";
  /** For a D1 call, the segment of pets (src/db/segments.ts) whose database it went to. */
  segment?: number;
  method: string;
  /** The SQL of a D1 call (a batch's statements joined by ";\n"). */
  sql?: string;
  /** For a D1 call in a session, the constraint or bookmark the session was opened with. */
  session?: string;
};

/**
 * What a hook makes of a call: nothing (it goes through), or an error thrown `before`
 * it reaches storage, or `after` it has been carried out (a write that committed but
 * whose answer was lost), or a call that `hangs` and never settles.
 */
export type Fault = { error: Error; when: "before" | "after" } | { hangs: true };
export type StorageHook = (call: StorageCall) => Fault | undefined;

type Bindings = Pick<Cloudflare.Env, "DB" | "API_KEYS" | "RATE_LIMITER" | "AUTH_FAILURE_LIMITER"> & {
  PETS_1?: D1Database;
  PETS_2?: D1Database;
};
type AnyFunction = (...args: never[]) => unknown;

/** `env` with its storage bindings wrapped by `hook`; every other binding is passed as is. */
export const wrapBindings = <E extends Bindings>(env: E, hook: StorageHook): E => ({
  ...env,
  DB: wrapD1(env.DB, hook, 0),
  ...(env.PETS_1 && { PETS_1: wrapD1(env.PETS_1, hook, 1) }),
  ...(env.PETS_2 && { PETS_2: wrapD1(env.PETS_2, hook, 2) }),
  API_KEYS: wrapKv(env.API_KEYS, hook),
  RATE_LIMITER: wrapLimiter(env.RATE_LIMITER, "RATE_LIMITER", hook),
  AUTH_FAILURE_LIMITER: wrapLimiter(env.AUTH_FAILURE_LIMITER, "AUTH_FAILURE_LIMITER", hook),
});

/** Round trips made through the wrapped bindings since the counter was made or last reset. */
export type RoundTripCounts = { d1: number; kv: number };

/**
 * Counts the D1 and KV round trips made through `env`, so that a test can tell how many
 * queries and KV calls one request costs (counted when the call is made, whether it then
 * succeeds or fails). Make one counter per request: counts are not split between
 * concurrent requests.
 */
export const countRoundTrips = <E extends Bindings = Cloudflare.Env>(env: E) => {
  const counts: RoundTripCounts = { d1: 0, kv: 0 };
  return {
    env: wrapBindings(env, ({ binding }) => {
      if (binding === "DB") counts.d1++;
      if (binding === "API_KEYS") counts.kv++;
      return undefined;
    }),
    counts: counts as Readonly<RoundTripCounts>,
    reset() {
      counts.d1 = 0;
      counts.kv = 0;
    },
  };
};

/** An error as D1 reports it: the binding's message, as Cloudflare's docs list them. */
export const d1Error = (message: string) => new Error(`D1_ERROR: ${message}`);

/**
 * `env` whose calls to `binding` (those whose SQL matches `sql`, for D1) fail with `error`:
 * the first `times` of them, or all; each such call is counted in `calls`.
 */
export const failing = <E extends Bindings = Cloudflare.Env>(
  env: E,
  {
    binding,
    error,
    when = "before",
    times = Number.POSITIVE_INFINITY,
    sql,
    segment,
  }: {
    binding: StorageCall["binding"];
    error: Error | "hangs";
    when?: "before" | "after";
    times?: number;
    sql?: RegExp;
    /** For D1: only the calls to this segment's database. */
    segment?: number;
  },
) => {
  const calls: StorageCall[] = [];
  let failed = 0;
  const wrapped = wrapBindings(env, (call) => {
    if (call.binding !== binding || (sql && !sql.test(call.sql ?? ""))) return undefined;
    if (segment !== undefined && call.segment !== segment) return undefined;
    calls.push(call);
    if (failed >= times) return undefined;
    failed++;
    return error === "hangs" ? { hangs: true } : { error, when };
  });
  return { env: wrapped, calls };
};

/** A stand-in for the method `target[name]` that passes each call by `hook` first. */
const hooked = <T, K extends keyof T>(target: T, name: K, call: StorageCall, hook: StorageHook): T[K] => {
  const method = target[name] as AnyFunction;
  return (async (...args: never[]) => {
    const fault = hook(call);
    if (fault && "hangs" in fault) return new Promise(() => {});
    if (fault?.when === "before") throw fault.error;
    const result = await Reflect.apply(method, target, args);
    if (fault?.when === "after") throw fault.error;
    return result;
  }) as T[K];
};

/**
 * A proxy that answers the given members instead of `target`'s and forwards every
 * other one (bound to `target`), so members added to a binding later keep working.
 */
const withMembers = <T extends object>(target: T, members: Partial<T>): T =>
  new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(members, property)) return members[property as keyof T];
      const value = Reflect.get(object, property);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });

const wrapLimiter = (limiter: RateLimit, binding: StorageCall["binding"], hook: StorageHook): RateLimit =>
  withMembers(limiter, { limit: hooked(limiter, "limit", { binding, method: "limit" }, hook) });

const wrapKv = (kv: KVNamespace, hook: StorageHook): KVNamespace =>
  withMembers(kv, {
    get: hooked(kv, "get", { binding: "API_KEYS", method: "get" }, hook),
    getWithMetadata: hooked(kv, "getWithMetadata", { binding: "API_KEYS", method: "getWithMetadata" }, hook),
    put: hooked(kv, "put", { binding: "API_KEYS", method: "put" }, hook),
    list: hooked(kv, "list", { binding: "API_KEYS", method: "list" }, hook),
    delete: hooked(kv, "delete", { binding: "API_KEYS", method: "delete" }, hook),
  });

const wrapD1 = (db: D1Database, hook: StorageHook, segment: number): D1Database => {
  // The runtime's batch() expects its own statements, so wrappers are swapped back.
  const originals = new WeakMap<D1PreparedStatement, { original: D1PreparedStatement; sql: string }>();
  const unwrap = (statements: D1PreparedStatement[]) =>
    statements.map((wrapped) => originals.get(wrapped)?.original ?? wrapped);

  const statement = (original: D1PreparedStatement, sql: string, session?: string): D1PreparedStatement => {
    const call = (method: string): StorageCall => ({ binding: "DB", segment, method, sql, session });
    const wrapped = withMembers(original, {
      bind: (...values: unknown[]) => statement(original.bind(...values), sql, session),
      first: hooked(original, "first", call("first"), hook),
      all: hooked(original, "all", call("all"), hook),
      run: hooked(original, "run", call("run"), hook),
      raw: hooked(original, "raw", call("raw"), hook),
    });
    originals.set(wrapped, { original, sql });
    return wrapped;
  };

  // A batch is one round trip, whatever the number of statements in it.
  const batchOf =
    (target: D1Database | D1DatabaseSession, session?: string) =>
    <T = unknown>(statements: D1PreparedStatement[]) => {
      const sql = statements.map((wrapped) => originals.get(wrapped)?.sql ?? "").join(";\n");
      const batch = (list: D1PreparedStatement[]) => target.batch<T>(list);
      return hooked(
        { batch },
        "batch",
        { binding: "DB", segment, method: "batch", sql, session },
        hook,
      )(unwrap(statements));
    };

  const session = (original: D1DatabaseSession, opened: string): D1DatabaseSession =>
    withMembers(original, {
      prepare: (query: string) => statement(original.prepare(query), query, opened),
      batch: batchOf(original, opened),
    });

  return withMembers(db, {
    prepare: (query: string) => statement(db.prepare(query), query),
    batch: batchOf(db),
    exec: hooked(db, "exec", { binding: "DB", segment, method: "exec" }, hook),
    withSession: (constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint) =>
      session(db.withSession(constraintOrBookmark), constraintOrBookmark ?? "first-unconstrained"),
  });
};
