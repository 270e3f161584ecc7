import { describe, expect, it } from "vitest";
import { whileBusy } from "../../../scripts/lib/while-busy";

// The local stores' calls, made again while a running `npm run dev` holds the SQLite files
// they share (scripts/lib/while-busy.ts): what workerd says then, and only that, is retried,
// 5 tries in all, after waits of 100, 200, 400 and 800 ms, handed to it here rather than slept.

/** A call that fails with each of `failures` in turn, then answers "done"; and the waits asked for. */
const failingWith = (...failures: string[]) => {
  let calls = 0;
  const waits: number[] = [];
  const call = async () => {
    const failure = failures[calls++];
    if (failure !== undefined) throw new Error(failure);
    return "done";
  };
  const wait = async (ms: number) => {
    waits.push(ms);
  };
  return { run: () => whileBusy(call, wait), calls: () => calls, waits };
};

const BUSY_KV = "internal error; reference = ue6ofpvjdboe5n41rsksa195";

describe("a store's call while another runtime holds its files", () => {
  it("is made again while it fails as busy, up to the 5th try", async () => {
    const busy = failingWith(BUSY_KV, "database is locked", "SQLITE_BUSY", BUSY_KV);
    expect(await busy.run()).toBe("done");
    expect(busy.calls()).toBe(5);
    expect(busy.waits).toEqual([100, 200, 400, 800]);
  });

  it("fails with the 5th busy failure, not a 6th try", async () => {
    const busy = failingWith(BUSY_KV, BUSY_KV, BUSY_KV, BUSY_KV, "SQLITE_BUSY: the 5th", BUSY_KV);
    await expect(busy.run()).rejects.toThrow(/^SQLITE_BUSY: the 5th$/);
    expect(busy.calls()).toBe(5);
  });

  it("fails at once with any other failure", async () => {
    const other = failingWith("KV put failed: injected");
    await expect(other.run()).rejects.toThrow(/^KV put failed: injected$/);
    expect(other.calls()).toBe(1);
    expect(other.waits).toEqual([]);
  });
});
