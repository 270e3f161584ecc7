// The apps (agents' hosts) registered with the sign-in Worker, and their removal
// (scripts/lib/app-registrations.ts says what a removal ends, and when).
//
//   npm run --silent apps -- [--remove <client id>] [--env staging|production --remote | --persist-to DIR]
//
// Every argument is checked before anything is read or written.
import { appTable, CLIENT_ID, removeApp } from "./lib/app-registrations";
import { runAsCommand } from "./lib/command";
import { openGrantStore } from "./lib/grant-store";
import { parseOptions } from "./lib/options";
import { TARGET_OPTIONS, targetFrom } from "./lib/target";

const USAGE =
  "Usage: npm run --silent apps -- [--remove <client id>] [--env staging|production --remote | --persist-to DIR]";

/** Runs `npm run apps` with `args`: what it says on stderr, and what it prints on stdout. */
export const runApps = async (args: string[]) => {
  const { values } = parseOptions({ args, options: { ...TARGET_OPTIONS, remove: { type: "string" } } }, USAGE);
  const target = targetFrom(values);
  const { remove } = values;
  if (remove !== undefined && !CLIENT_ID.test(remove)) {
    throw new Error(`--remove takes a client id, as npm run apps lists them.\n${USAGE}`);
  }
  const store = await openGrantStore(target);
  try {
    return await (remove === undefined ? appTable(store) : removeApp(store, remove));
  } finally {
    await store.close();
  }
};

runAsCommand(import.meta.url, runApps);
