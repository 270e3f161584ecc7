// The CPU time a server spends, read from /proc: the user and system time of each process
// that `wrangler dev` runs, told apart by what it is. wrangler dev puts a second workerd in
// front of the Worker's (a proxy that also rewrites absolute URLs in Location and Link),
// a cost production does not have; wrangler's Node relays the Worker's log lines.
import { readdirSync, readFileSync } from "node:fs";

/** Linux counts CPU time in ticks of 1/100 s (`getconf CLK_TCK`). */
const TICK_US = 10_000;

export const PARTS = ["worker", "proxy", "wrangler"] as const;
export type Part = (typeof PARTS)[number];
export type CpuUs = Record<Part, number>;

type Process = { pid: number; ppid: number; ticks: number };

const readProcess = (pid: number): Process | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After "(command)": state, ppid, ... utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined; // it exited between the listing and the read
  }
};

const partOf = (pid: number): Part => {
  let args: string[] = [];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {}
  if (!args[0]?.endsWith("/workerd")) return "wrangler";
  // The Worker's workerd is the one with an inspector; the proxy's faces the client's port.
  return args.some((arg) => arg.startsWith("--inspector-addr")) ? "worker" : "proxy";
};

const parts = new Map<number, Part>();

/** A reading of cpuOf: the CPU time by part, and which processes were read. */
export type CpuReading = CpuUs & { processes: string };

/** The CPU time so far of the process `root` (a dev server's group leader) and all its descendants, by part. */
export const cpuOf = (root: number): CpuReading => {
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcess(Number(name)))
    .filter((process) => process !== undefined);
  const children = Map.groupBy(all, ({ ppid }) => ppid);
  const total: CpuUs = { worker: 0, proxy: 0, wrangler: 0 };
  const read: number[] = [];
  const pending = all.filter(({ pid }) => pid === root);
  for (let process = pending.pop(); process; process = pending.pop()) {
    const part = parts.get(process.pid) ?? partOf(process.pid);
    parts.set(process.pid, part);
    total[part] += process.ticks * TICK_US;
    read.push(process.pid);
    pending.push(...(children.get(process.pid) ?? []));
  }
  return { ...total, processes: read.toSorted((a, b) => a - b).join(" ") };
};

/**
 * The CPU time spent between two readings. A process that started or exited meanwhile
 * (wrangler dev restarts its workerd when a source file changes) takes its time with it:
 * the load is refused rather than counted wrong.
 */
export const difference = (after: CpuReading, before: CpuReading): CpuUs => {
  if (after.processes !== before.processes) {
    throw new Error("a process of the server started or exited during a load (did a source file change?)");
  }
  return {
    worker: after.worker - before.worker,
    proxy: after.proxy - before.proxy,
    wrangler: after.wrangler - before.wrangler,
  };
};
