import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { OPEN_SEGMENT_BINDING, segmentDatabases } from "./segments";

// Locally D1 has only a primary, so a test of what a replica changes needs one that lags:
// a second database (the LAGGING_REPLICA binding of vitest.config.ts) with the migrations
// and none of the writes, read by the sessions D1 would send to a replica.

/** A result as a replica's: it says that a replica answered, as D1's do. */
const marked = <T extends { meta: D1Meta }>(result: T): T => ({
  ...result,
  meta: { ...result.meta, served_by_primary: false },
});

/** The replica's own statement behind each statement `fromReplica` made, for a batch of them. */
const replicaStatements = new WeakMap<D1PreparedStatement, D1PreparedStatement>();

/** A replica's statement: its results say that a replica answered. */
const fromReplica = (statement: D1PreparedStatement): D1PreparedStatement => {
  const wrapped = {
    bind: (...values: unknown[]) => fromReplica(statement.bind(...values)),
    all: async () => marked(await statement.all()),
    run: async () => marked(await statement.run()),
    first: (column?: string) => statement.first(column as string),
    raw: (options?: { columnNames?: boolean }) => statement.raw(options as { columnNames: true }),
  } as D1PreparedStatement;
  replicaStatements.set(wrapped, statement);
  return wrapped;
};

/**
 * The API's D1 with a read replica that lags: a session opened without a bookmark
 * ("first-unconstrained", as D1 then reads from the nearest replica) reads from `replica`,
 * which has none of the writes since it was made; writes, and sessions opened from a
 * bookmark or on the primary, go to the real database.
 */
const withLaggingReplica = (primary: D1Database, replica: D1Database): D1Database =>
  ({
    ...primary,
    withSession(constraint?: string) {
      const session = primary.withSession(constraint);
      const stale = constraint === undefined || constraint === "first-unconstrained";
      const replicaSession = replica.withSession("first-unconstrained");
      return {
        prepare: (sql: string) =>
          stale && /^\s*select\b/i.test(sql) ? fromReplica(replicaSession.prepare(sql)) : session.prepare(sql),
        // A batch of reads only goes to the replica, as D1 sends it; any write, to the primary.
        batch: async (statements: D1PreparedStatement[]) => {
          const reads = statements.map((statement) => replicaStatements.get(statement));
          if (reads.some((read) => read === undefined)) return session.batch(statements);
          return (await replicaSession.batch(reads as D1PreparedStatement[])).map(marked);
        },
        getBookmark: () => session.getBookmark(),
      } as unknown as D1DatabaseSession;
    },
  }) as D1Database;

/**
 * The suite's bindings, with the open segment behind a replica that lags from now on, and
 * each closed one behind a replica that is current (a closed segment no longer changes).
 */
export const withLaggingReplicaBindings = async (): Promise<Cloudflare.Env> => {
  const { TEST_MIGRATIONS, LAGGING_REPLICA } = env as Cloudflare.Env & {
    TEST_MIGRATIONS: D1Migration[];
    LAGGING_REPLICA: D1Database;
  };
  await applyD1Migrations(LAGGING_REPLICA, TEST_MIGRATIONS);
  const replicas = Object.fromEntries(
    env.PET_SEGMENTS.split(" ").map((binding, position) => {
      const primary = segmentDatabases[position] as D1Database;
      return [binding, withLaggingReplica(primary, binding === OPEN_SEGMENT_BINDING ? LAGGING_REPLICA : primary)];
    }),
  );
  return { ...env, ...replicas };
};
