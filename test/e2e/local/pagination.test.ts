import { describe, expect, it } from "vitest";
import { api, apiKey, createPet, nextLink, type Pet, rawHttp } from "../helpers/client";

// Walks the whole collection, which only a scratch server keeps small.

describe("GET /v1/pets, every page", () => {
  it("following rel=next visits every pet once, in ascending id order, the new ones included", async () => {
    const created: Pet[] = [];
    for (let index = 0; index < 5; index++) created.push(await createPet(`walk ${index}`, { status: "pending" }));
    const seen: Pet[] = [];
    let url: string | undefined = "/v1/pets?limit=2&status=pending";
    while (url) {
      const response = await api(url);
      expect(response.status).toBe(200);
      const page = (await response.json()) as Pet[];
      expect(page.length).toBeGreaterThan(0);
      expect(page.length).toBeLessThanOrEqual(2);
      seen.push(...page);
      url = nextLink(response);
    }
    const ids = seen.map((pet) => pet.id);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    expect(seen.every((pet) => pet.status === "pending")).toBe(true);
    const createdIds = new Set(created.map((pet) => pet.id));
    expect(seen.filter((pet) => createdIds.has(pet.id))).toEqual(created);
  });
});

describe("GET /v1/pets's next link", () => {
  it("is relative to the request, whatever Host the request forged: it never leads a client elsewhere", async () => {
    for (const purpose of ["forged host 1", "forged host 2"]) await createPet(purpose);
    const forged = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: attacker.example\r\nAuthorization: Bearer ${apiKey}\r\nConnection: close\r\n\r\n`;
    const [answer] = await rawHttp([Buffer.from(forged)]);
    expect(answer?.status).toBe(200);
    expect(answer?.headers.get("Link")).toMatch(/^<\?limit=1&cursor=[\w.-]+>; rel="next"$/);
  });
});
