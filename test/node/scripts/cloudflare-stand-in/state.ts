// What the stand-in account (./account.ts) holds, and the shape of its API's answers.
import type { IncomingMessage } from "node:http";
import type { DatabaseSync } from "node:sqlite";

export const ACCOUNT_ID = "0123456789abcdef0123456789abcdef";

export type Binding = { type: string; name: string; id?: string; namespace_id?: string; [field: string]: unknown };
type Version = { id: string; bindings: Binding[] };
export type Worker = { versions: Version[]; deployed?: { version_id: string; percentage: number }[] };

/** The account's contents and what was asked of it. */
export type Account = {
  workers: Map<string, Worker>;
  namespaces: Map<string, string>;
  databases: Map<string, { name: string; db: DatabaseSync }>;
  /** KV values by "<namespace id>/<key>", as uploaded (a key's metadata beside its value). */
  values: Map<string, string>;
  requests: string[];
  unknown: string[];
  /** Workers whose next upload fails (once each). */
  failUploadsOf: Set<string>;
};

/** A request to the API: its path under the account, method, query, and body. */
export type Call = {
  at: string;
  method: string;
  url: URL;
  request: IncomingMessage;
  body: Buffer;
  /** The body as JSON, of the shape the route knows it to have. */
  json: <T = Record<string, string>>() => T;
};

/** An answer: its status and body (JSON, or a KV value as it is); undefined for a request not of that part of the API. */
export type Answer = [number, unknown] | undefined;

export const ok = (result: unknown, extra: Record<string, unknown> = {}) => ({
  success: true,
  errors: [],
  messages: [],
  result,
  ...extra,
});
export const notFound = (code: number, message: string) => ({
  success: false,
  errors: [{ code, message }],
  messages: [],
});

/** The bindings of the version serving most of a Worker's traffic. */
export const servingBindings = (worker: Worker | undefined): Binding[] => {
  const [serving] = (worker?.deployed ?? []).toSorted((a, b) => b.percentage - a.percentage);
  return worker?.versions.find(({ id }) => id === serving?.version_id)?.bindings ?? [];
};
