import { env, exports } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { generateApiKey, hashApiKey } from "../src/api-keys";
import type { NewPet, Pet } from "../src/schemas";
import { expectConformance } from "./conformance";

export { expectError } from "./error-body";

export const BASE_URL = "https://petstore.test";

/** Issues a key the way scripts/keys.ts does: only its hash and record go to KV. */
export const createApiKey = async (label = "test"): Promise<string> => {
  const key = generateApiKey("development");
  const record = JSON.stringify({ label, createdAt: new Date().toISOString() });
  await env.API_KEYS.put(await hashApiKey(key), record);
  return key;
};

type CallOptions = Omit<RequestInit, "body"> & { key?: string | null; json?: unknown; body?: BodyInit };

/**
 * Every request of the suite reaches the Worker's own fetch handler here, and every
 * answer is checked against openapi.json before the test sees it.
 */
export const send = async (request: Request): Promise<Response> => {
  const { method, url } = request;
  const response = await exports.default.fetch(request);
  await expectConformance(new Request(url, { method }), response);
  return response;
};

/** A request through the Worker's own fetch handler, authenticated with `key` unless it is null. */
export const call = (path: string, { key, json, headers, ...init }: CallOptions = {}) => {
  const allHeaders = new Headers(headers);
  if (key) allHeaders.set("Authorization", `Bearer ${key}`);
  if (json !== undefined) {
    if (!allHeaders.has("Content-Type")) allHeaders.set("Content-Type", "application/json");
    init.body = JSON.stringify(json);
  }
  return send(new Request(`${BASE_URL}${path}`, { ...init, headers: allHeaders }));
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
 * Runs `run` and returns the JSON error lines the Worker wrote meanwhile: tests that
 * provoke a 500 assert its log line instead of printing it.
 */
export const errorLogLines = async (run: () => Promise<void>): Promise<Record<string, unknown>[]> => {
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await run();
    return spy.mock.calls.map(([line]) => JSON.parse(String(line)));
  } finally {
    spy.mockRestore();
  }
};
