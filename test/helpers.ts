import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { type ApiKeyRecord, generateApiKey, hashApiKey } from "../src/api-keys";
import worker from "../src/index";
import type { NewPet, Pet } from "../src/schemas";
import { expectConformance } from "./conformance";

export { expectError } from "./error-body";

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

/**
 * Every request of the suite reaches the Worker's own fetch handler here (with the real
 * bindings, or with `bindings` that wrap them: test/wrap-bindings.ts), and every answer
 * is checked against openapi.json before the test sees it. With `settle`, the request's
 * work after the response (its waitUntil) is done too before this returns.
 */
export const send = async (request: Request, bindings?: Cloudflare.Env, settle = false): Promise<Response> => {
  const { method, url } = request;
  let response: Response;
  if (bindings || settle) {
    const context = createExecutionContext();
    response = await worker.fetch(request, bindings ?? env, context);
    if (settle) await waitOnExecutionContext(context);
  } else {
    response = await exports.default.fetch(request);
  }
  await expectConformance(new Request(url, { method }), response);
  return response;
};

type CallOptions = Omit<RequestInit, "body"> & {
  key?: string | null;
  json?: unknown;
  body?: BodyInit;
  bindings?: Cloudflare.Env;
  /** Wait for the request's work after the response, too. */
  settle?: boolean;
};

/** A request through the Worker's own fetch handler, authenticated with `key` unless it is null. */
export const call = (path: string, { key, json, headers, bindings, settle, ...init }: CallOptions = {}) => {
  const allHeaders = new Headers(headers);
  if (key) allHeaders.set("Authorization", `Bearer ${key}`);
  if (json !== undefined) {
    if (!allHeaders.has("Content-Type")) allHeaders.set("Content-Type", "application/json");
    init.body = JSON.stringify(json);
  }
  return send(new Request(`${BASE_URL}${path}`, { ...init, headers: allHeaders }), bindings, settle);
};

export const createPet = async (key: string, pet: Partial<NewPet>): Promise<Pet> => {
  const response = await call("/v1/pets", { method: "POST", key, json: pet });
  expect(response.status).toBe(201);
  return response.json();
};

export const countPets = async (): Promise<number> => {
  const row = await env.DB.prepare("select count(*) as count from pets").first<{ count: number }>();
  return row?.count ?? 0;
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
