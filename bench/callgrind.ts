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

/** The instructions `pid` executed since its counts were last zeroed or dumped (or since it started). */
export const dumpInstructions = (dir: string, pid: string) => {
  execFileSync("callgrind_control", ["-d", pid], { stdio: "pipe" });
  const dumps = readdirSync(dir).filter((file) => file.startsWith(`callgrind.${pid}.`));
  const newest = dumps.toSorted((a, b) => Number(a.split(".").pop()) - Number(b.split(".").pop())).at(-1) ?? "";
  const instructions = Number(readFileSync(path.join(dir, newest), "utf8").match(/^(?:summary|totals): (\d+)/m)?.[1]);
  if (!Number.isFinite(instructions)) throw new Error(`no instruction count in ${newest}`);
  return instructions;
};
