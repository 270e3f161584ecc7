import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { firstThreadCount } from "../../../bench/callgrind";

// `npm run bench` puts bench/callgrind-workerd.sh in place of workerd: only the
// Worker's workerd (the one given an inspector) may run under callgrind, and it must leave its
// pid where the bench looks for it. A stand-in valgrind and workerd print what they were given.
const WRAPPER = path.resolve("bench/callgrind-workerd.sh");
const dir = mkdtempSync(path.join(tmpdir(), "bench-callgrind-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const standIn = (name: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho ${name} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
};
const workerd = standIn("workerd");
standIn("valgrind");
const run = (...args: string[]) =>
  execFileSync(WRAPPER, args, {
    encoding: "utf8",
    env: { PATH: `${dir}:/usr/bin:/bin`, BENCH_WORKERD: workerd, BENCH_CALLGRIND_DIR: dir },
  }).trim();

describe("bench/callgrind-workerd.sh", () => {
  it("runs wrangler dev's proxy (no inspector) as it is", () => {
    expect(run("serve", "--binary", "-")).toBe(`workerd serve --binary -`);
    expect(readdirSync(dir).filter((name) => name.startsWith("workerd."))).toEqual([]);
  });

  it("runs the Worker's workerd under callgrind, and leaves its pid for the bench", () => {
    const output = run("serve", "-", "--inspector-addr=127.0.0.1:0");
    expect(output).toMatch(/^valgrind --tool=callgrind --smc-check=all-non-file /);
    expect(output).toContain(" --separate-threads=yes ");
    expect(output).toContain(`--callgrind-out-file=${dir}/callgrind.%p`);
    expect(output.endsWith(`${workerd} serve - --inspector-addr=127.0.0.1:0`)).toBe(true);
    const [pidFile] = readdirSync(dir).filter((name) => name.startsWith("workerd."));
    expect(pidFile).toMatch(/^workerd\.\d+$/);
    expect(readFileSync(path.join(dir, pidFile ?? ""), "utf8").trim()).toBe(pidFile?.slice("workerd.".length));
  });
});

describe("the count the bench reads", () => {
  it("is the first thread's of the newest dump, whatever the other threads counted", () => {
    const dumps = mkdtempSync(path.join(tmpdir(), "bench-dumps-"));
    try {
      const dump = (name: string, count: number) =>
        writeFileSync(path.join(dumps, name), `events: Ir\nsummary: ${count}\n`);
      dump("callgrind.41", 0);
      dump("callgrind.41.9-01", 900);
      dump("callgrind.41.10-01", 1000);
      dump("callgrind.41.10-02", 5);
      dump("callgrind.42.11-01", 42);
      expect(firstThreadCount(dumps, "41")).toBe(1000);
      expect(() => firstThreadCount(dumps, "43")).toThrow("no dump of 43's first thread");
    } finally {
      rmSync(dumps, { recursive: true, force: true });
    }
  });
});
