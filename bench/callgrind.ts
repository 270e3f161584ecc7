// Reading callgrind's counts of a workerd that ./callgrind-workerd.sh started: which process
// it is, zeroing its counts, and the instructions since the last zeroing (or its start).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The workerd under callgrind among the descendants of `leader`, a server's process group leader. */
export const countedProcess = (dir: string, leader: number) => {
  const counted = new Set(readdirSync(dir).flatMap((name) => name.match(/^workerd\.(\d+)$/)?.[1] ?? []));
  // A process that has exited (a server stopped earlier in the run) has no parent to read.
  const parentOf = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1];
    } catch {
      return undefined;
    }
  };
  const descends = (pid: string): boolean => {
    const parent = parentOf(pid);
    return parent === String(leader) || (parent !== undefined && parent !== "0" && descends(parent));
  };
  const pid = [...counted].find((candidate) => descends(candidate));
  if (!pid) throw new Error(`no workerd under callgrind among the processes of ${leader}`);
  return pid;
};

export const zeroCounts = (pid: string) => execFileSync("callgrind_control", ["-z", pid], { stdio: "pipe" });

/** The files of `pid`'s newest dump, one per thread: callgrind.<pid>.<dump>-<thread>. */
const newestDump = (dir: string, pid: string) => {
  const dumps = readdirSync(dir).flatMap((file) => {
    const [, dump, thread] = new RegExp(`^callgrind\\.${pid}\\.(\\d+)-(\\d+)$`).exec(file) ?? [];
    return dump === undefined ? [] : [{ file, dump: Number(dump), thread: Number(thread) }];
  });
  const newest = Math.max(...dumps.map(({ dump }) => dump));
  return dumps.filter(({ dump }) => dump === newest);
};

/**
 * The instructions of `pid`'s newest dump, all its threads: the Worker's requests, its
 * JavaScript, V8's compilers (which the bench keeps on the Worker's thread, ./run.ts) and its
 * collections, whose work a helper thread may take while the Worker's thread waits for it.
 */
export const newestDumpCount = (dir: string, pid: string) => {
  const files = newestDump(dir, pid);
  if (files.length === 0) throw new Error(`no dump of ${pid} in ${dir}`);
  return files.reduce((sum, { file }) => {
    const instructions = Number(readFileSync(path.join(dir, file), "utf8").match(/^(?:summary|totals): (\d+)/m)?.[1]);
    if (!Number.isFinite(instructions)) throw new Error(`no instruction count in ${file}`);
    return sum + instructions;
  }, 0);
};

/** Each function's own instructions in a callgrind dump (a cost line after `calls=` is the call's, not the caller's). */
export const selfCosts = (text: string) => {
  const names = new Map<string, string>();
  const costs = new Map<string, number>();
  let current: string | undefined;
  let callCost = false;
  for (const line of text.split("\n")) {
    const named = /^(c?fn)=\((\d+)\)(?: (.*))?$/.exec(line);
    if (named) {
      const [, kind, id = "", name] = named;
      if (name !== undefined) names.set(id, name);
      if (kind === "fn") current = names.get(id) ?? id;
    } else if (line.startsWith("calls=")) callCost = true;
    else if (/^[\d+*-]/.test(line)) {
      const cost = Number(line.split(" ")[1] ?? 0);
      if (!callCost && current !== undefined) costs.set(current, (costs.get(current) ?? 0) + cost);
      callCost = false;
    }
  }
  return costs;
};

/** V8's optimizing and baseline compilers, by the namespaces of their functions. */
const V8_COMPILERS = /^v8::internal::(maglev|compiler|turboshaft|baseline)::/;

/**
 * The V8 compiler functions that ran on `pid`'s other threads in its newest dump: none, when
 * workerd runs V8 with --single-threaded as the bench asks (./v8-flags.ts).
 */
export const helperThreadsCompiling = (dir: string, pid: string) =>
  newestDump(dir, pid)
    .filter(({ thread }) => thread > 1)
    .flatMap(({ file }) => [...selfCosts(readFileSync(path.join(dir, file), "utf8"))])
    .filter(([name, cost]) => cost > 0 && V8_COMPILERS.test(name))
    .map(([name]) => name);

/** The instructions of `pid` since its counts were last zeroed or dumped (or since it started). */
export const dumpInstructions = (dir: string, pid: string) => {
  execFileSync("callgrind_control", ["-d", pid], { stdio: "pipe" });
  return newestDumpCount(dir, pid);
};
