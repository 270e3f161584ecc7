// The check of a dump (./check-dump.ts) in a process of its own, ended at a time limit: nothing
// in node:sqlite can interrupt a statement that runs too long.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type DumpContents, inspectDump } from "./check-dump";

/** How long the check of a dump of `bytes` may run: 10 s, and 1 s more per MiB begun (an export runs in far less). */
export const checkTimeLimitMs = (bytes: number) => 10_000 + Math.ceil(bytes / 2 ** 20) * 1_000;

const ROOT = path.resolve(import.meta.dirname, "../..");

/** What the check's process prints once it has started and read the dump, before it runs it. */
const RUNNING = "running\n";

/**
 * inspectDump of the file, in a process of its own that is killed `timeLimitMs` after it
 * starts to run the dump (its own start, slow on a loaded machine, is not counted): resolves
 * to what the dump holds, rejects with what is wrong with it, or that it took too long.
 */
export const inspectDumpInTime = (file: string, timeLimitMs: number): Promise<DumpContents> =>
  new Promise((resolve, reject) => {
    const check = spawn(process.execPath, ["--import", "tsx", import.meta.filename, file], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = { stdout: "", stderr: "" };
    let timer: ReturnType<typeof setTimeout> | undefined;
    check.stdout.on("data", (chunk) => {
      output.stdout += chunk;
      if (timer === undefined && output.stdout.startsWith(RUNNING)) {
        timer = setTimeout(() => {
          check.kill("SIGKILL");
          reject(
            new Error(
              `The dump's check did not finish within ${timeLimitMs / 1000} s: no export takes that long to run. Nothing was restored.`,
            ),
          );
        }, timeLimitMs);
      }
    });
    check.stderr.on("data", (chunk) => {
      output.stderr += chunk;
    });
    check.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(output.stdout.slice(RUNNING.length)) as DumpContents);
      else if (code !== null) reject(new Error(output.stderr.trim() || `The dump's check failed (exit ${code}).`));
    });
  });

// Run as the check's own process: the file's contents, or what is wrong with them.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const sql = readFileSync(process.argv[2] ?? "", "utf8");
    process.stdout.write(RUNNING);
    process.stdout.write(JSON.stringify(inspectDump(sql)));
  } catch (error) {
    process.stderr.write((error as Error).message);
    process.exitCode = 1;
  }
}
