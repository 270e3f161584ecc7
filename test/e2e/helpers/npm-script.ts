import { execFile } from "node:child_process";
import { promisify, stripVTControlCharacters } from "node:util";

/**
 * `npm run --silent <script> -- ...args`, as an operator types it: its exit code and what
 * it printed (colours left out), whether it succeeded or not. Async, so that the tests
 * of a file may run at once, and so that connections the servers close meanwhile are seen
 * closed (a test blocked in a synchronous child would reuse one and get "other side closed").
 */
export const npmScript = async (script: string, args: string[], env: Record<string, string> = {}) => {
  // npm test quiets wrangler (WRANGLER_LOG=warn); an operator's terminal does not.
  const { WRANGLER_LOG: _, ...operatorEnv } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)("npm", ["run", "--silent", script, "--", ...args], {
      env: { ...operatorEnv, ...env },
    });
    return { code: 0, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) };
  }
};
