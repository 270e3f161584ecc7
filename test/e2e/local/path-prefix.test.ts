import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type DeprecationWarning } from "../../../client/src/index";
import { type Harness, startHarness } from "../helpers/harness";

// The API behind a gateway that mounts it under a path prefix, as an API gateway or a
// reverse proxy does: what the API points to (the next page, a new pet, getPet's successor)
// must resolve inside the prefix, where the gateway forwards it, not at the gateway's root.

const PREFIX = "/gateway/petstore";
let api: Harness;
let gateway: Server;
let base: string;

beforeAll(async () => {
  api = await startHarness();
  gateway = createServer(async (request, response) => {
    const url = request.url ?? "/";
    if (!url.startsWith(`${PREFIX}/`)) return response.writeHead(404).end("outside the gateway's prefix");
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => name !== "host" && name !== "connection"),
    ) as Record<string, string>;
    const answer = await fetch(`${api.origin}${url.slice(PREFIX.length)}`, {
      method: request.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    // fetch has decoded the body: its encoding and length are no longer the answer's.
    const passed = [...answer.headers].filter(([name]) => !["content-encoding", "content-length"].includes(name));
    response.writeHead(answer.status, Object.fromEntries(passed));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}${PREFIX}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => gateway?.close(resolve));
  await api?.close();
});

describe("behind a gateway's path prefix", () => {
  it("each next link, resolved against the request's URL, is the next page under the prefix", async () => {
    const warnings: DeprecationWarning[] = [];
    const client = createClient({ baseUrl: base, apiKey: api.apiKey, onWarning: (warning) => warnings.push(warning) });
    const names = ["Gate A", "Gate B", "Gate C", "Gate D", "Gate E"];
    for (const name of names) await client.createPet({ name, categoryId: 7, status: "sold" });
    // As a client that knows only RFC 8288 follows it: the Link's target, resolved, is the next URL.
    const walked: string[] = [];
    for (let url: string | undefined = `${base}/pets?status=sold&limit=2`; url !== undefined; ) {
      const page: Response = await fetch(url, { headers: { Authorization: `Bearer ${api.apiKey}` } });
      expect(page.status, url).toBe(200);
      walked.push(...((await page.json()) as { name: string }[]).map(({ name }) => name));
      const target: string | undefined = /^<([^>]+)>; rel="next"$/.exec(page.headers.get("Link") ?? "")?.[1];
      url = target === undefined ? undefined : new URL(target, url).href;
    }
    expect(walked).toEqual(names);
    // The client walks the same; getPet's successor, as it reports it, is the listing under the prefix.
    const listed: string[] = [];
    for await (const pet of client.listAllPets({ status: "sold", limit: 2 })) listed.push(pet.name);
    expect(listed).toEqual(names);
    const [first] = (await client.listPets({ status: "sold", limit: 1 })).pets;
    await client.getPet(first?.id ?? 0);
    expect(warnings.map(({ successor }) => successor)).toEqual([`${base}/pets`]);
  });

  it("the bare address's index, resolved against the request's URL, points to the reference page under the prefix", async () => {
    for (const bare of [base.replace(/\/v1$/, "/"), base]) {
      const index = (await (await fetch(bare)).json()) as { docs: string };
      const docs = await fetch(new URL(index.docs, bare));
      expect([docs.url, docs.status]).toEqual([`${base}/docs`, 200]);
      await docs.arrayBuffer();
    }
  });

  it("a new pet's Location, resolved against the request's URL, is the pet under the prefix", async () => {
    const created = await fetch(`${base}/pets`, {
      method: "POST",
      headers: { Authorization: `Bearer ${api.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Located", categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    const location = new URL(created.headers.get("Location") ?? "", `${base}/pets`);
    expect(location.href).toBe(`${base}/pets/${pet.id}`);
    const fetched = await fetch(location, { headers: { Authorization: `Bearer ${api.apiKey}` } });
    expect(await fetched.json()).toEqual(pet);
    const successor = /^<([^>]+)>; rel="successor-version"$/.exec(fetched.headers.get("Link") ?? "")?.[1];
    expect(new URL(successor ?? "", location).href).toBe(`${base}/pets`);
  });
});
