// What the benchmark sends and how it sums up: its targets, each with the answer it
// must give, and the statistics of the report.
import { LIST_LIMIT } from "../src/schemas";

/**
 * Each target is judged against the reference that pays the same binding calls (the
 * rate-limit call of every authenticated request, and the query of one that reaches D1):
 * its CPU time per request at most this share above the reference's, and its req/s at
 * least this share of the reference's.
 */
export const GOALS = {
  memory: { reference: "limit", maxCpuOverhead: 0.05, minRps: 0.95 },
  d1: { reference: "limitAndQuery", maxCpuOverhead: 0.1, minRps: 0.95 },
} as const;

export const median = (numbers: number[]) => {
  const sorted = numbers.toSorted((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
/** The nearest-rank quantile `q` (0 to 1). */
export const quantile = (numbers: number[], q: number) =>
  numbers.toSorted((a, b) => a - b)[Math.max(0, Math.ceil(numbers.length * q) - 1)] ?? 0;
export const p99 = (numbers: number[]) => quantile(numbers, 0.99);
export const verdict = (met: boolean) => (met ? "met" : "NOT met");

export type Target = {
  name: string;
  url: string;
  ok: (status: number, body: unknown) => boolean;
  goal?: keyof typeof GOALS;
  /** The process group leader of the server that answers it (./cpu.ts reads its CPU time). */
  server: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
};

export const status = (expected: number) => (actual: number) => actual === expected;
export const page = (full: boolean) => (actual: number, body: unknown) =>
  actual === 200 &&
  Array.isArray(body) &&
  (full ? body.length === LIST_LIMIT.default : body.length > 0 && body.length < LIST_LIMIT.default);

export const send = ({ url, method, headers, body }: Target) => fetch(url, { method, headers, body });

// A target answering 401 or an empty page would look fast: each answer is checked first.
export const check = async (target: Target) => {
  const response = await send(target);
  const body: unknown = await response.json().catch(() => undefined);
  if (!target.ok(response.status, body)) {
    throw new Error(`${target.name} answered ${response.status}: ${JSON.stringify(body)}`);
  }
};
