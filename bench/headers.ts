// Response headers of the bench Workers, shared by them and by scripts/bench.ts (so
// free of runtime-specific types, for both tsconfigs).

/** Which bench Worker answered: scripts/bench.ts checks it, so that a port taken by another server is noticed. */
export const WORKER_HEADER = "X-Bench-Worker";

/** Sent by scripts/bench.ts on the requests whose round trips it wants counted (not under load). */
export const COUNT_REQUEST_HEADER = "X-Bench-Count";

/** The storage round trips of the request, written by bench/instrumented-api.ts. */
export const ROUND_TRIPS_HEADER = "X-Bench-Round-Trips";

export type RoundTrips = { d1: number; kv: number };

export const formatRoundTrips = ({ d1, kv }: RoundTrips) => `d1=${d1};kv=${kv}`;

export const parseRoundTrips = (header: string | null): RoundTrips | undefined => {
  const match = /^d1=(\d+);kv=(\d+)$/.exec(header ?? "");
  return match ? { d1: Number(match[1]), kv: Number(match[2]) } : undefined;
};
