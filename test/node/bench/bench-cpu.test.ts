import { describe, expect, it } from "vitest";
import { cpuOf, difference } from "../../../bench/cpu";

// The bench's CPU readings (bench/cpu.ts): a load is refused when the server's processes
// changed under it, as they do when wrangler dev restarts its workerd on a file change.

describe("the bench's CPU readings", () => {
  it("read a process and what it spent, counted as wrangler's when it is no workerd", () => {
    const reading = cpuOf(process.pid);
    expect(reading.processes.split(" ")).toContain(String(process.pid));
    expect(reading.wrangler).toBeGreaterThan(0);
  });

  it("refuse a load during which a process started or exited", () => {
    const reading = { worker: 10, proxy: 10, wrangler: 10 };
    expect(() => difference({ ...reading, processes: "1 3" }, { ...reading, processes: "1 2" })).toThrow(
      /started or exited during a load/,
    );
  });
});
