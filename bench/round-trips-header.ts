// Shared by the instrumented Worker (which writes the header) and scripts/bench.ts
// (which reads it); free of runtime-specific types so that both can import it.

export const ROUND_TRIPS_HEADER = "X-Bench-Round-Trips";

export type RoundTrips = { d1: number; kv: number };

export const formatRoundTrips = ({ d1, kv }: RoundTrips) => `d1=${d1};kv=${kv}`;

export const parseRoundTrips = (header: string | null): RoundTrips | undefined => {
  const match = /^d1=(\d+);kv=(\d+)$/.exec(header ?? "");
  return match ? { d1: Number(match[1]), kv: Number(match[2]) } : undefined;
};
