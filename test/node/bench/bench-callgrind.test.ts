import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { helperThreadsCompiling, newestDumpCount, selfCosts } from "../../../bench/callgrind";

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
  it("is the newest dump's, all its threads", () => {
    const dumps = mkdtempSync(path.join(tmpdir(), "bench-dumps-"));
    try {
      const dump = (name: string, count: number) =>
        writeFileSync(path.join(dumps, name), `events: Ir\nsummary: ${count}\n`);
      dump("callgrind.41", 0);
      dump("callgrind.41.9-01", 900);
      dump("callgrind.41.10-01", 1000);
      dump("callgrind.41.10-02", 5);
      dump("callgrind.42.11-01", 42);
      expect(newestDumpCount(dumps, "41")).toBe(1005);
      expect(() => newestDumpCount(dumps, "43")).toThrow("no dump of 43");
    } finally {
      rmSync(dumps, { recursive: true, force: true });
    }
  });
});

describe("what ran on the other threads", () => {
  // Callgrind's format: a function named once by id, then its cost lines; a call's inclusive
  // cost follows its calls= line and is not the caller's own.
  const DUMP = [
    "events: Ir",
    "fn=(1) v8::internal::maglev::MaglevCompiler::Compile(x)",
    "10 300",
    "cfn=(2) v8::internal::Scavenger::Process(v8::JobDelegate*)",
    "calls=1 0",
    "11 5000",
    "+1 7",
    "fn=(2)",
    "* 40",
    "fn=(3) workerd::api::Headers::~Headers()",
    "20 9",
  ].join("\n");

  it("sums each function's own cost, not what its calls cost", () => {
    expect(Object.fromEntries(selfCosts(DUMP))).toEqual({
      "v8::internal::maglev::MaglevCompiler::Compile(x)": 307,
      "v8::internal::Scavenger::Process(v8::JobDelegate*)": 40,
      "workerd::api::Headers::~Headers()": 9,
    });
  });

  it("names V8's compilers on any thread but the first, in the newest dump", () => {
    const dumps = mkdtempSync(path.join(tmpdir(), "bench-threads-"));
    try {
      writeFileSync(path.join(dumps, "callgrind.41.2-01"), DUMP);
      writeFileSync(path.join(dumps, "callgrind.41.2-02"), "events: Ir\nfn=(1) workerd::Io::run()\n1 5\n");
      expect(helperThreadsCompiling(dumps, "41")).toEqual([]);
      writeFileSync(path.join(dumps, "callgrind.41.3-01"), "events: Ir\nfn=(1) workerd::Io::run()\n1 5\n");
      writeFileSync(path.join(dumps, "callgrind.41.3-03"), DUMP);
      expect(helperThreadsCompiling(dumps, "41")).toEqual(["v8::internal::maglev::MaglevCompiler::Compile(x)"]);
    } finally {
      rmSync(dumps, { recursive: true, force: true });
    }
  });
});
