import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect, vi } from "vitest";
import worker from "../../src/index";
import { type ApiKeyRecord, generateApiKey, hashApiKey } from "../../src/keys/api-key";
import type { NewPet, Pet } from "../../src/schemas";
import { buildRequest, createPetThrough, type RequestOptions } from "./api-client";
import { expectConformance } from "./conformance";
import { expectMcpConformance } from "./mcp-conformance";
import { petsPerSegment } from "./segments";

export { expectError, expectUnavailable, nextLink, nextQuery, walkPages } from "./api-client";

export const BASE_URL = "https://petstore.test";

/** Issues a key the way scripts/keys.ts does: only its hash and record (with `scopes` and `expiresAt` if given) go to KV. */
export const createApiKey = async (
  label = "test",
  limits: Pick<ApiKeyRecord, "scopes" | "expiresAt"> = {},
): Promise<string> => {
  const key = generateApiKey("development");
  const record = JSON.stringify({ label, createdAt: new Date().toISOString(), ...limits } satisfies ApiKeyRecord);
  await env.API_KEYS.put(await hashApiKey(key), record);
  return key;
};

type Transport = {
  /** Bindings in place of the suite's: other vars or secrets, or wrapped (test/helpers/wrap-bindings.ts). */
  bindings?: Cloudflare.Env;
  /** Wait for the request's work after the response (its waitUntil) too. */
  settle?: boolean;
  /** The execution context to run it in, to wait for its work after the response later. */
  context?: ExecutionContext;
  /** Called with the answer as soon as the Worker returns it, before anything else runs. */
  onAnswer?: (response: Response) => void;
  /** Why this request is meant to be answered outside openapi.json: its answer is then not checked against it. */
  outsideContract?: string;
};

/**
 * The client address of the running test file (an IPv6 /64 of its own, from its path):
 * the files share one runtime and its limiters, and each file is one client of the
 * unknown-key throttle, as it would be alone. Tests about addresses send their own.
 */
const fileAddress = () => {
  const path = expect.getState().testPath ?? "";
  let hash = 0;
  for (const char of path) hash = (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) >>> 0;
  return `2001:db8:${(hash >>> 16).toString(16)}:${(hash & 0xffff).toString(16)}::1`;
};

/**
 * Every request of the suite reaches the Worker's own fetch handler here (with the real
 * bindings, or with `bindings` in their place), and every answer is checked against
 * openapi.json before the test sees it.
 */
export const send = async (
  request: Request,
  { bindings, settle = false, context, onAnswer, outsideContract }: Transport = {},
): Promise<Response> => {
  const { method, url, headers } = request;
  if (!request.headers.has("CF-Connecting-IP")) request.headers.set("CF-Connecting-IP", fileAddress());
  const toMcp = new URL(url).pathname === "/mcp";
  const mcpRequest = toMcp ? await request.clone().text() : "";
  let response: Response;
  if (bindings || settle || context) {
    const executionContext = context ?? createExecutionContext();
    response = await worker.fetch(request, bindings ?? env, executionContext);
    onAnswer?.(response);
    if (settle) await waitOnExecutionContext(executionContext);
  } else {
    response = await exports.default.fetch(request);
    onAnswer?.(response);
  }
  if (!outsideContract) await expectConformance(new Request(url, { method, headers }), response);
  if (toMcp) await expectMcpConformance(method, mcpRequest, response);
  return response;
};

export type CallOptions = RequestOptions & Transport;

/** A request through the Worker's own fetch handler (test/helpers/api-client.ts), authenticated with `key` if given. */
export const call = (
  path: string,
  { bindings, settle, context, onAnswer, outsideContract, ...options }: CallOptions = {},
) => send(buildRequest(`${BASE_URL}${path}`, options), { bindings, settle, context, onAnswer, outsideContract });

export const createPet = (key: string, pet: Partial<NewPet>) => createPetThrough(call, pet, { key });

/** A key, and a pending pet created with it: what a file about faults serves while they last. */
export const keyWithPet = async (label: string): Promise<{ key: string; pet: Pet }> => {
  const key = await createApiKey(label);
  return { key, pet: await createPet(key, { name: "Steady", categoryId: 1, status: "pending" }) };
};

/** The pets stored, in every segment. */
export const countPets = async (): Promise<number> => {
  const perSegment = await petsPerSegment();
  return perSegment.reduce((sum, count) => sum + count, 0);
};

/**
 * Runs `run` and returns the JSON error and warning lines the Worker wrote meanwhile, in
 * order: tests that provoke a fault assert its log line instead of printing it.
 */
export const faultLogLines = async (run: () => Promise<void>): Promise<Record<string, unknown>[]> => {
  const lines: Record<string, unknown>[] = [];
  const capture = (line: unknown) => {
    lines.push(JSON.parse(String(line)));
  };
  const spies = [
    vi.spyOn(console, "error").mockImplementation(capture),
    vi.spyOn(console, "warn").mockImplementation(capture),
  ];
  try {
    await run();
    return lines;
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
};
