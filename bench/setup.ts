// What `npm run bench` and `npm run bench:profile` run on: N seeded pets, a key and a
// cursor secret in a scratch directory (the developer's .wrangler/state and .dev.vars are
// left alone), and the API's targets, each with the answer it must give.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { createKey } from "../scripts/keys";
import { openStores } from "../scripts/lib/stores";
import { seedPets } from "../scripts/seed";
import { LIST_LIMIT } from "../src/schemas";
import { page, status, type Target } from "./targets";

/** A whole-number option (`--name`) of at least `min`, or the run stops before it starts anything. */
export const wholeNumber = (text: string | undefined, name: string, min: number) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min)
    throw new Error(`--${name} must be a whole number of at least ${min}.`);
  return value;
};

/** At least a full first page and one pet more, so that the first page has a next one. */
export const MIN_PETS = LIST_LIMIT.default + 1;

export const prepareApi = async (runDir: string, count: number, log: (message: string) => void) => {
  const persistTo = path.join(runDir, "api");
  const secret = randomBytes(32).toString("base64url");
  const envFile = path.join(runDir, "bench.env");
  writeFileSync(envFile, `CURSOR_SECRET=${secret}\nCURSOR_SECRET_PREVIOUS=\n`, { mode: 0o600 });
  log(`seeding ${count} pets`);
  log(`seeded in ${seedPets({ count, persistTo }).toFixed(1)} s`);
  const local = { remote: false, persistTo };
  const stores = await openStores(local);
  const auth = { Authorization: `Bearer ${await createKey("bench", local, stores).finally(stores.close)}` };
  return { persistTo, secret, envFile, auth };
};

/** The four authenticated targets of the API served at `origin` by the server whose group leader is `server`. */
export const apiTargets = (origin: string, auth: Record<string, string>, count: number, server: number) => {
  const pets = `${origin}/v1/pets`;
  return {
    firstPage: {
      name: "GET /v1/pets (full first page)",
      url: pets,
      headers: auth,
      ok: page(true),
      goal: "memory",
      server,
    },
    partialPage: {
      name: "GET /v1/pets?status=pending (partial page)",
      url: `${pets}?status=pending`,
      headers: auth,
      ok: page(false),
      goal: "d1",
      server,
    },
    getPet: {
      name: "GET /v1/pets/{id}",
      url: `${pets}/${Math.ceil(count / 2)}`,
      headers: auth,
      ok: status(200),
      goal: "memory",
      server,
    },
    create: {
      name: "POST /v1/pets",
      url: pets,
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Bench pet", categoryId: 1 }),
      ok: status(201),
      goal: "d1",
      server,
    },
  } satisfies Record<string, Target>;
};
