import { expect } from "vitest";
import type { NewPet, Pet } from "../../src/schemas";

export { expectError, expectUnavailable } from "./error-body";

// The one test client, for the suite in workerd (test/helpers/index.ts: `call`, through the
// Worker's fetch) and the suites over HTTP (test/e2e/helpers/client.ts: `api`, on a real
// connection): the same requests, the same createPet, the same reading of next links
// and of error bodies. The workerd transport checks every answer against openapi.json
// (test/helpers/conformance.ts); the HTTP one does when it runs through Prism (npm run test:contract).

export type RequestOptions = RequestInit & {
  /** The API key for `Authorization: Bearer`; none when null (or, in workerd, when absent). */
  key?: string | null;
  /** A body sent as JSON, with Content-Type: application/json unless the headers give one. */
  json?: unknown;
};

/** The request that `options` describe, to `url`. */
export const buildRequest = (url: string | URL, { key, json, headers, ...init }: RequestOptions): Request => {
  const allHeaders = new Headers(headers);
  if (key) allHeaders.set("Authorization", `Bearer ${key}`);
  if (json !== undefined) {
    if (!allHeaders.has("Content-Type")) allHeaders.set("Content-Type", "application/json");
    init.body = JSON.stringify(json);
  }
  return new Request(url, { ...init, headers: allHeaders });
};

/** A transport's request function: a path (with its query) and the options above. */
export type Send = (path: string, options?: RequestOptions) => Promise<Response>;

/** createPet through `send`: the stored pet, after checking that it was created. */
export const createPetThrough = async (send: Send, pet: Partial<NewPet>, options: RequestOptions = {}) => {
  const response = await send("/v1/pets", { ...options, method: "POST", json: pet });
  expect(response.status, `createPet answered ${response.status}`).toBe(201);
  return (await response.json()) as Pet;
};

/**
 * The target of the `Link: <?...>; rel="next"` header, which must have exactly that form (a
 * query-only reference), resolved against the listing's path; undefined without one.
 */
export const nextLink = (response: Response): string | undefined => {
  const link = response.headers.get("Link");
  if (!link) return undefined;
  const match = /^<(\?[^>]+)>; rel="next"$/.exec(link);
  expect(match, `Link header ${link}`).not.toBeNull();
  return match ? `/v1/pets${match[1]}` : undefined;
};

/** The query of the next link, as URLSearchParams; undefined without one. */
export const nextQuery = (response: Response): URLSearchParams | undefined => {
  const link = nextLink(response);
  return link === undefined ? undefined : new URLSearchParams(link.slice(link.indexOf("?")));
};

/** Follows the next links from `path` to the end through `send`, each answer a 200; every page, in order. */
export const walkPages = async <Options extends RequestOptions>(
  send: (path: string, options?: Options) => Promise<Response>,
  path: string,
  options?: Options,
  between?: () => Promise<unknown>,
): Promise<Pet[][]> => {
  const pages: Pet[][] = [];
  for (let next: string | undefined = path; next !== undefined; ) {
    const response = await send(next, options);
    expect(response.status, `GET ${next}`).toBe(200);
    pages.push((await response.json()) as Pet[]);
    next = nextLink(response);
    await between?.();
  }
  return pages;
};
