// What the bench sends and what it judges: the API's targets, each with the answer it must
// give and its goal over what it is judged against: its floor (./floor.ts), or, for a tool
// call through /mcp, the same operation over HTTP through the API itself.
import { FLUSH_INTERVAL_MS } from "../src/deprecation/usage";
import { LIST_LIMIT } from "../src/schemas";
import { BENCH_PET } from "./queries";

/**
 * The most a target may cost over its floor, in instructions per request: the reads answered
 * from the isolate's memory, and those that reach D1 (reads and creates); and the most a tool
 * call may cost over its operation.
 */
export const GOALS = { memory: 0.06, d1: 0.08, tool: 0.08 } as const;
/** The API's own startup, over its floor's, in million instructions, at most. */
export const STARTUP_GOAL_M = 110;

export type Target = {
  name: string;
  url: string;
  ok: (status: number, body: unknown) => boolean;
  goal: keyof typeof GOALS;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** How long after its load the count waits, so that the work the load leaves behind is its own. */
  settleMs: number;
};

/** Work a load leaves behind (waitUntil writes, garbage) is counted with it, not with the next. */
const SETTLE_MS = 1000;

const status = (expected: number) => (actual: number) => actual === expected;
const page = (full: boolean) => (actual: number, body: unknown) =>
  actual === 200 &&
  Array.isArray(body) &&
  (full ? body.length === LIST_LIMIT.default : body.length > 0 && body.length < LIST_LIMIT.default);

/** MCP's current revision, which a request names in its headers and its _meta (src/mcp/versions.ts). */
const MCP_REVISION = "2026-07-28";
/** A tools/call of the current revision, as an agent's client sends it. */
const toolCall = (origin: string, auth: Record<string, string>, name: string, args: Record<string, unknown>) => ({
  url: `${origin}/mcp`,
  method: "POST" as const,
  headers: {
    ...auth,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": MCP_REVISION,
    "Mcp-Method": "tools/call",
    "Mcp-Name": name,
  },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name,
      arguments: args,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MCP_REVISION,
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  }),
});
/** A tool's result that is not an error, whose structuredContent `ok` accepts. */
const toolResult = (ok: (value: unknown) => boolean) => (actual: number, body: unknown) => {
  const result = (body as { result?: { isError?: boolean; structuredContent?: unknown } } | undefined)?.result;
  return actual === 200 && result !== undefined && result.isError === undefined && ok(result.structuredContent);
};

/** The authenticated targets of the API at `origin`, by name (./queries.ts names the ones that reach D1 alike). */
export const apiTargets = (origin: string, auth: Record<string, string>, count: number) => {
  const pets = `${origin}/v1/pets`;
  return {
    firstPage: {
      name: "GET /v1/pets (full first page)",
      url: pets,
      headers: auth,
      ok: page(true),
      goal: "memory",
      settleMs: SETTLE_MS,
    },
    getPet: {
      name: "GET /v1/pets/{id}",
      url: `${pets}/${Math.ceil(count / 2)}`,
      headers: auth,
      ok: status(200),
      goal: "memory",
      // Its calls are counted in memory and written to D1 one interval after the first of them
      // (src/deprecation/usage.ts): that write is its own, not the next load's.
      settleMs: FLUSH_INTERVAL_MS + SETTLE_MS,
    },
    partialPage: {
      name: "GET /v1/pets?status=pending (partial page)",
      url: `${pets}?status=pending`,
      headers: auth,
      ok: page(false),
      goal: "d1",
      settleMs: SETTLE_MS,
    },
    create: {
      name: "POST /v1/pets",
      url: pets,
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: BENCH_PET.name, categoryId: BENCH_PET.categoryId }),
      ok: status(201),
      goal: "d1",
      settleMs: SETTLE_MS,
    },
    listPetsTool: {
      name: "list_pets through /mcp",
      ...toolCall(origin, auth, "list_pets", {}),
      ok: toolResult((value) => page(true)(200, (value as { pets?: unknown } | undefined)?.pets)),
      goal: "tool",
      settleMs: SETTLE_MS,
    },
    createPetTool: {
      name: "create_pet through /mcp",
      ...toolCall(origin, auth, "create_pet", { name: BENCH_PET.name, categoryId: BENCH_PET.categoryId }),
      ok: toolResult((value) => (value as { name?: unknown } | undefined)?.name === BENCH_PET.name),
      goal: "tool",
      settleMs: SETTLE_MS,
    },
  } satisfies Record<string, Target>;
};

export type TargetName = keyof ReturnType<typeof apiTargets>;

/** The targets the peer (./peer.ts) answers too: the three operations over HTTP. */
export const PEER_TARGETS: TargetName[] = ["firstPage", "getPet", "partialPage", "create"];

/** A target answering 401 or an empty page would look fast: each answer is checked first (`send` stands for fetch in tests). */
export const check = async ({ name, url, method, headers, body, ok }: Target, send = fetch) => {
  const response = await send(url, { method, headers, body });
  const answer: unknown = await response.json().catch(() => undefined);
  if (!ok(response.status, answer)) throw new Error(`${name} answered ${response.status}: ${JSON.stringify(answer)}`);
};

export const median = (numbers: number[]) => {
  const sorted = numbers.toSorted((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
