// How an operator script runs as a command (`npm run --silent <script> -- ...`): what it says
// goes to stderr, what it prints (a table, a key) to stdout, and a refusal or a failure to
// stderr with exit code 1. Each script's work is a function that the tests call in their own
// process; what only a process shows is this: test/e2e/helpers/key-script-tests.ts runs
// `npm run key:create` as one, a key made and a refusal, and test/node/scripts/commands.test.ts
// each other command, refusing.
import { pathToFileURL } from "node:url";

/** What a command says on stderr, and what it prints on stdout (a new key is its last line). */
export type Outcome = { said?: string; printed: string[] };

/** Runs `run` with the process's arguments when `moduleUrl` is the script that node was started with. */
export const runAsCommand = (moduleUrl: string, run: (args: string[]) => Promise<Outcome>) => {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? "").href) return;
  run(process.argv.slice(2)).then(
    ({ said, printed }) => {
      if (said) console.error(said);
      for (const line of printed) console.log(line);
    },
    (error: Error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
};
