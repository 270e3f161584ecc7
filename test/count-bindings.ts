// Counts storage round trips made through an env's D1 and KV bindings, so that a
// test can tell how many queries and KV calls one request costs. A round trip is one
// call that goes to storage: a statement's first/all/run/raw, a batch (however many
// statements it holds), an exec, and each KV get/getWithMetadata/put/list/delete.
// Building statements (prepare, bind) and reading a session's bookmark cost nothing
// and count nothing.
//
// Counts are taken when the call is made, whether it then succeeds or fails.

/** Round trips made through the wrapped bindings since the counter was made or last reset. */
export type RoundTripCounts = { d1: number; kv: number };

export type RoundTripCounter<E> = {
  /** `env` with DB and API_KEYS replaced by counting wrappers; every other binding is passed as is. */
  env: E;
  /** Live counts: read them after the work to measure. */
  counts: Readonly<RoundTripCounts>;
  reset(): void;
};

type StorageBindings = Pick<Cloudflare.Env, "DB" | "API_KEYS">;
type AnyFunction = (...args: never[]) => unknown;

/**
 * Wraps `env` (the Worker's own Cloudflare.Env, or a test's env that extends it).
 * Make one counter per request: the counts are not split between concurrent requests.
 */
export const countRoundTrips = <E extends StorageBindings = Cloudflare.Env>(env: E): RoundTripCounter<E> => {
  const counts: RoundTripCounts = { d1: 0, kv: 0 };
  return {
    env: {
      ...env,
      DB: countD1(env.DB, () => counts.d1++),
      API_KEYS: countKv(env.API_KEYS, () => counts.kv++),
    },
    counts,
    reset() {
      counts.d1 = 0;
      counts.kv = 0;
    },
  };
};

/** A stand-in for the method `target[name]` that ticks before each call. */
const counted = <T, K extends keyof T>(target: T, name: K, tick: () => void): T[K] => {
  const method = target[name] as AnyFunction;
  return ((...args: never[]) => {
    tick();
    return Reflect.apply(method, target, args);
  }) as T[K];
};

/**
 * A proxy that answers the given members instead of `target`'s and forwards every
 * other one (bound to `target`), so members added to a binding later keep working.
 */
const override = <T extends object>(target: T, members: Partial<T>): T =>
  new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(members, property)) return members[property as keyof T];
      const value = Reflect.get(object, property);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });

const countKv = (kv: KVNamespace, tick: () => void): KVNamespace =>
  override(kv, {
    get: counted(kv, "get", tick),
    getWithMetadata: counted(kv, "getWithMetadata", tick),
    put: counted(kv, "put", tick),
    list: counted(kv, "list", tick),
    delete: counted(kv, "delete", tick),
  });

const countD1 = (db: D1Database, tick: () => void): D1Database => {
  // The runtime's batch() expects its own statements, so wrappers are swapped back.
  const originals = new WeakMap<D1PreparedStatement, D1PreparedStatement>();
  const unwrap = (statements: D1PreparedStatement[]) => statements.map((wrapped) => originals.get(wrapped) ?? wrapped);

  const statement = (original: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = override(original, {
      bind: (...values: unknown[]) => statement(original.bind(...values)),
      first: counted(original, "first", tick),
      all: counted(original, "all", tick),
      run: counted(original, "run", tick),
      raw: counted(original, "raw", tick),
    });
    originals.set(wrapped, original);
    return wrapped;
  };

  // A batch is one round trip, whatever the number of statements in it.
  const batchOf =
    (target: D1Database | D1DatabaseSession) =>
    <T = unknown>(statements: D1PreparedStatement[]) => {
      tick();
      return target.batch<T>(unwrap(statements));
    };

  const session = (original: D1DatabaseSession): D1DatabaseSession =>
    override(original, {
      prepare: (query: string) => statement(original.prepare(query)),
      batch: batchOf(original),
    });

  return override(db, {
    prepare: (query: string) => statement(db.prepare(query)),
    batch: batchOf(db),
    exec: counted(db, "exec", tick),
    withSession: (constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint) =>
      session(db.withSession(constraintOrBookmark)),
  });
};
