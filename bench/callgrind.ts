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

/**
 * The instructions of `pid`'s first thread, which runs the Worker: its requests, its
 * JavaScript and the garbage collections it waits on. V8's helper threads are left out: they
 * hold its optimizing compilers and concurrent marking, and when their work lands depends on
 * when a compile or a marking finishes, not on a load's requests: on 2026-11-28, in 20 loads
 * of `npm run bench -- --targets getPet,firstPage --rounds 4 --warm-up 1 --startup-runs 0`,
 * they counted 2 to 37 million instructions beside a first thread's 440 to 486.
 * Callgrind writes a file per thread and dump: callgrind.<pid>.<dump>-<thread>.
 */
export const firstThreadCount = (dir: string, pid: string) => {
  const dumps = readdirSync(dir).flatMap((file) => {
    const [, dump, thread] = new RegExp(`^callgrind\\.${pid}\\.(\\d+)-(\\d+)$`).exec(file) ?? [];
    return dump === undefined ? [] : [{ file, dump: Number(dump), thread: Number(thread) }];
  });
  const newest = Math.max(...dumps.map(({ dump }) => dump));
  const file = dumps.find(({ dump, thread }) => dump === newest && thread === 1)?.file;
  if (!file) throw new Error(`no dump of ${pid}'s first thread in ${dir}`);
  const instructions = Number(readFileSync(path.join(dir, file), "utf8").match(/^(?:summary|totals): (\d+)/m)?.[1]);
  if (!Number.isFinite(instructions)) throw new Error(`no instruction count in ${file}`);
  return instructions;
};

/** The instructions of `pid`'s first thread since its counts were last zeroed or dumped (or since it started). */
export const dumpInstructions = (dir: string, pid: string) => {
  execFileSync("callgrind_control", ["-d", pid], { stdio: "pipe" });
  return firstThreadCount(dir, pid);
};
