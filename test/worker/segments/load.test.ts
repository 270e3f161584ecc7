import { describe, expect, it } from "vitest";
import type { Pet } from "../../../src/schemas";
import { call, createApiKey, nextLink } from "../../helpers/index";
import { closeSegment, freshSegments, segmentEnv } from "../../helpers/segments";

// Creates in flight, from several callers, while segment 0 is closed under them (the last step
// of `npm run segment:open`): none is a 5xx, no id is given twice, and a walk afterwards visits
// every pet once, by ascending id.

const PER_KEY = 100;

describe("a segment opened under load", () => {
  it("answers every create, gives no id twice, and the walk afterwards sees every pet once", async () => {
    await freshSegments();
    const bindings = segmentEnv(2);
    const keys = await Promise.all(["load a", "load b"].map((label) => createApiKey(label)));
    // Each key known to the isolate first, as a busy caller's is: a burst of a key it does not
    // know yet counts against the throttle on unknown keys.
    for (const key of keys) expect((await call("/v1/pets?limit=1", { key, bindings })).status).toBe(200);
    const send = (key: string, index: number) =>
      call("/v1/pets", {
        method: "POST",
        key,
        bindings,
        json: { name: `Load ${index}`, categoryId: 1 },
        // Half with an Idempotency-Key, so that both paths meet the closing.
        headers: index % 2 ? { "Idempotency-Key": `load-${index}` } : {},
      });
    const before = (await (await send(keys[0] as string, -1)).json()) as Pet;
    expect(before.id).toBeLessThan(2 ** 40);
    // A first wave in flight while segment 0 is closed, and a second once it is.
    const wave = (from: number) =>
      keys.flatMap((key) => Array.from({ length: PER_KEY / 2 }, (_, index) => send(key, from + index)));
    const first = wave(0);
    await closeSegment(0, Date.UTC(2027, 0, 1));
    const second = wave(PER_KEY / 2);
    const answers = await Promise.all([...first, ...second]);
    expect(answers.map(({ status }) => status).filter((status) => status !== 201)).toEqual([]);
    const created = (await Promise.all(answers.map((answer) => answer.json()))) as Pet[];
    const ids = [before.id, ...created.map(({ id }) => id)];
    expect(new Set(ids).size).toBe(ids.length);
    // Every create sent after the closing went to segment 1.
    expect(created.slice(first.length).every(({ id }) => id >= 2 ** 40)).toBe(true);

    const walked: number[] = [];
    for (let page: string | undefined = "/v1/pets?limit=37"; page !== undefined; ) {
      const answer = await call(page, { key: keys[0] as string, bindings });
      expect(answer.status).toBe(200);
      walked.push(...((await answer.json()) as Pet[]).map(({ id }) => id));
      page = nextLink(answer);
    }
    expect(walked).toEqual([...ids].sort((a, b) => a - b));
  });
});
