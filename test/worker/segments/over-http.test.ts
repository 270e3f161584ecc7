import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BOOKMARK, type Pet } from "../../../src/schemas";
import { answerAtDeadline } from "../../helpers/deadline";
import { call, createApiKey, expectError, nextLink } from "../../helpers/index";
import { closeSegment, freshSegments, segmentEnv } from "../../helpers/segments";
import { d1Error, failing } from "../../helpers/wrap-bindings";

// Three segments over HTTP: segment 0 with pets of its own and closed, 1 open, 2 listed (as
// `npm run segment:open` leaves them). The bookmark that names a segment, and a segment that
// fails: what needs it alone is 503, and a walk goes on from the same cursor once it answers.

const SPAN = 2 ** 40;
const bindings = segmentEnv(3);
let key: string;
let older: Pet[];
beforeAll(async () => {
  await freshSegments();
  key = await createApiKey("segments over HTTP");
  // Written to segment 0's database itself: no isolate has read them.
  const { results } = await env.DB.prepare(
    "insert into pets (name, category_id, status) values ('Old 1', 1, 'available'), ('Old 2', 1, 'available'), ('Old 3', 1, 'available') returning id, name, category_id as categoryId, status",
  ).all<Pet>();
  older = results;
  await closeSegment(0, Date.UTC(2026, 0, 1));
});

const create = async (name: string, headers: Record<string, string> = {}) => {
  const response = await call("/v1/pets", { method: "POST", key, bindings, headers, json: { name, categoryId: 1 } });
  expect(response.status).toBe(201);
  return { pet: (await response.json()) as Pet, bookmark: response.headers.get("x-d1-bookmark") ?? "" };
};

describe("x-d1-bookmark with segments", () => {
  it("names the segment of a write, and, sent back, reads it", async () => {
    const { pet, bookmark } = await create("Mine");
    expect(pet.id).toBeGreaterThanOrEqual(SPAN);
    expect(bookmark).toMatch(BOOKMARK);
    expect(bookmark).toMatch(/^s0001:/);
    const listed = await call("/v1/pets?limit=100", { key, bindings, headers: { "x-d1-bookmark": bookmark } });
    expect(await listed.json()).toContainEqual(pet);
    // The walk read segment 0 too: both segments' bookmarks come back, the newer segment first.
    const both = listed.headers.get("x-d1-bookmark") ?? "";
    expect(both).toMatch(BOOKMARK);
    expect(both).toMatch(/^s0001:[^,]+,[0-9a-f]{8}-/);
    expect(both >= bookmark).toBe(true);
  });

  it("takes the bookmarks of two segments, and refuses three", async () => {
    const { bookmark } = await create("Two");
    const zero = bookmark.replace(/^s0001:/, "");
    const two = `${bookmark},${zero}`;
    expect((await call("/v1/pets?limit=1", { key, bindings, headers: { "x-d1-bookmark": two } })).status).toBe(200);
    const three = `s0002:${zero},${two}`;
    const refused = await call("/v1/pets?limit=1", { key, bindings, headers: { "x-d1-bookmark": three } });
    expect((await expectError(refused, 400, "invalid_request")).message).toContain("'x-d1-bookmark'");
  });
});

describe("a segment that fails", () => {
  const brokenOne = () => failing(bindings, { binding: "DB", segment: 1, error: d1Error("Network connection lost.") });

  it("is 503 with Retry-After for a pet it holds, and does not stop a pet of another", async () => {
    const { pet } = await create("Unreachable");
    const broken = brokenOne();
    // A pet known to the isolate is answered from memory; one it never read needs its segment.
    const fresh = await env.DB.prepare("select id from pets limit 1").first<{ id: number }>();
    const stored = await call(`/v1/pets/${fresh?.id}`, { key, bindings: broken.env });
    expect(stored.status).toBe(200);
    const direct = await segmentEnv(3)
      .PETS_1.prepare("insert into pets (name, category_id, status) values ('Direct', 1, 'sold') returning id")
      .first<{ id: number }>();
    const unreachable = await call(`/v1/pets/${direct?.id}`, { key, bindings: broken.env });
    await expectError(unreachable, 503, "unavailable");
    expect(unreachable.headers.get("Retry-After")).toBe("3");
    expect(pet.id).toBeGreaterThanOrEqual(SPAN);
  });

  it("stops a walk at the page that needs it, which goes on from the same cursor once it answers", async () => {
    const broken = brokenOne();
    const first = await call("/v1/pets?limit=1", { key, bindings: broken.env });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual([older[0]]);
    const second = nextLink(first) ?? "";
    // Page 2 ends segment 0's pets and needs one row of segment 1, to know whether more follow.
    const atTwo = await call(second, { key, bindings: broken.env });
    expect(atTwo.status).toBe(200);
    const third = nextLink(atTwo) ?? "";
    const failed = await call(third, { key, bindings: broken.env });
    await expectError(failed, 503, "unavailable");
    const resumed = await call(third, { key, bindings });
    expect(resumed.status).toBe(200);
    expect(((await resumed.json()) as Pet[])[0]).toEqual(older[2]);
  });

  // docs/architecture.md: a query that has not answered within 5 s.
  it("that hangs is 503 at the deadline, 5 s", async () => {
    const hung = failing(bindings, { binding: "DB", segment: 1, error: "hangs" });
    const answer = await answerAtDeadline(
      () => call("/v1/pets", { method: "POST", key, bindings: hung.env, json: { name: "Hung", categoryId: 1 } }),
      () => hung.calls.length,
      5_000,
    );
    await expectError(answer, 503, "unavailable");
  });
});
