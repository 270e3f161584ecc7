// `npm run bench [-- --count N --duration S --rounds R --connections C --log-level L]`:
// what it measures and how to read it is in bench/README.md.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startDevServer } from "../scripts/dev-server";
import { createKey } from "../scripts/keys";
import { seedPets } from "../scripts/seed";
import { openStores } from "../scripts/stores";
import { LIST_LIMIT } from "../src/schemas";
import { measureScale } from "./scale";
import { measureStartup, STARTUP_RUNS } from "./startup";
import { check, GOALS, median, page, type Sample, status, type Target, verdict } from "./targets";

const RUN_DIR = path.resolve(".wrangler/bench/run");

const { values } = parseArgs({
  options: {
    count: { type: "string" },
    // Short rounds pair each target closely in time with the references; with 7, one
    // round disturbed by other work on the machine moves no median.
    duration: { type: "string", default: "3" },
    rounds: { type: "string", default: "7" },
    connections: { type: "string", default: "8" },
    "log-level": { type: "string", default: "log" },
  },
});
const positive = (name: "count" | "duration" | "rounds" | "connections", fallback = "") => {
  const value = Number(values[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer.`);
  return value;
};
const [count, duration, rounds, connections] = [
  positive("count", "1000"),
  positive("duration"),
  positive("rounds"),
  positive("connections"),
];
if (count <= LIST_LIMIT.default) throw new Error(`--count must exceed ${LIST_LIMIT.default}, for a full first page.`);
const args = process.argv.slice(2);
const command = args.length ? `npm run bench -- ${args.join(" ")}` : "npm run bench";

const log = (message: string) => console.log(`[bench] ${message}`);

const load = async ({ url, method = "GET", headers, body }: Target, seconds: number): Promise<Sample> => {
  const result = await autocannon({ url, method, headers, body, connections, duration: seconds });
  const { requests, latency, errors, non2xx } = result;
  return { rps: requests.average, p50: latency.p50, p99: latency.p99, failures: errors + non2xx };
};

/** Each target for `duration` s in turn, `rounds` times; each round starts one target later, so none always follows the same one. */
const measureThroughput = async (targets: Target[]) => {
  log("warming up every target (1 s each)");
  for (const target of targets) await load(target, 1);
  const samples = new Map<Target, Sample[]>(targets.map((target) => [target, []]));
  for (let round = 0; round < rounds; round++) {
    log(`round ${round + 1}/${rounds}`);
    for (const target of [...targets.slice(round % targets.length), ...targets.slice(0, round % targets.length)]) {
      // A pause, so that what a load leaves behind (wrangler relaying log lines, garbage) is not charged to the next.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      samples.get(target)?.push(await load(target, duration));
    }
  }
  return (target: Target) => samples.get(target) ?? [];
};

const main = async () => {
  const started = performance.now();
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  log(`wrangler check startup (${STARTUP_RUNS} runs)`);
  const figures = measureStartup(RUN_DIR);

  // Scratch state and secret: the developer's .wrangler/state and .dev.vars are left alone.
  const persistTo = path.join(RUN_DIR, "api");
  const secret = randomBytes(32).toString("base64url");
  const envFile = path.join(RUN_DIR, "bench.env");
  writeFileSync(envFile, `CURSOR_SECRET=${secret}\nCURSOR_SECRET_PREVIOUS=\n`, { mode: 0o600 });
  log(`seeding ${count} pets`);
  log(`seeded in ${seedPets({ count, persistTo }).toFixed(1)} s`);
  const local = { remote: false, persistTo };
  const stores = await openStores(local);
  const auth = { Authorization: `Bearer ${await createKey("bench", local, stores).finally(stores.close)}` };

  log("starting the API and the reference Worker with wrangler dev");
  const devArgs = ["--env-file", envFile, "--log-level", values["log-level"]];
  const [api, reference] = await Promise.all([
    startDevServer({
      name: "api",
      command: "wrangler dev",
      args: ["--name", "petstore-bench-api", ...devArgs],
      persistTo,
    }),
    startDevServer({
      name: "reference",
      command: "wrangler dev",
      args: ["--config", "bench/reference.toml", ...devArgs],
      // Its own: Miniflare's SQLite files are contended by two servers starting at once.
      persistTo: path.join(RUN_DIR, "reference"),
      probe: { path: "/bare", isOurs: (response) => response.headers.has("X-Bench-Reference") },
    }),
  ]);
  try {
    const pets = `${api.origin}/v1/pets`;
    const partial: Target = {
      name: "GET /v1/pets?status=pending (partial page)",
      url: `${pets}?status=pending`,
      headers: auth,
      ok: page(false),
      goal: "limitAndQuery",
    };
    const targets: Target[] = [
      { name: "GET /v1/pets (full first page)", url: pets, headers: auth, ok: page(true), goal: "limit" },
      partial,
      {
        name: "GET /v1/pets/{id}",
        url: `${pets}/${Math.ceil(count / 2)}`,
        headers: auth,
        ok: status(200),
        goal: "limit",
      },
      {
        name: "POST /v1/pets",
        url: pets,
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Bench pet", categoryId: 1 }),
        ok: status(201),
        goal: "limitAndQuery",
      },
    ];
    const references = {
      bare: { name: "reference: bare Worker", url: `${reference.origin}/bare`, ok: status(200) },
      floor: { name: "reference: one-query floor", url: `${reference.origin}/one-query`, ok: status(200) },
      limit: { name: "reference: bare + one rate-limit call", url: `${reference.origin}/one-limit`, ok: status(200) },
      limitAndQuery: {
        name: "reference: one rate-limit call + one query",
        url: `${reference.origin}/limit-and-query`,
        ok: status(200),
      },
    };
    targets.push(...Object.values(references));
    for (const target of targets) await check(target);
    const samplesOf = await measureThroughput(targets);

    // Ratios within each round, then their median: a load on the machine that comes and
    // goes moves both sides of a round's ratio alike.
    const rps = (target: Target) => samplesOf(target).map((sample) => sample.rps);
    const ratio = (target: Target, to: Target) =>
      median(rps(target).map((value, round) => value / (rps(to)[round] ?? 0)));
    const warnings: string[] = [];
    const rows = targets.map((target) => {
      const of = (key: keyof Sample) => median(samplesOf(target).map((sample) => sample[key])).toFixed(0);
      const x = {
        bare: ratio(target, references.bare),
        floor: ratio(target, references.floor),
        limit: ratio(target, references.limit),
        limitAndQuery: ratio(target, references.limitAndQuery),
      };
      const { goal } = target;
      const met = goal
        ? `>= ${GOALS[goal]}x ${references[goal].name.replace("reference: ", "")}: ${verdict(x[goal] >= GOALS[goal])}`
        : "";
      const ratios = [x.bare, x.floor, x.limit, x.limitAndQuery].map((r) => r.toFixed(2));
      const failures = samplesOf(target).reduce((sum, sample) => sum + sample.failures, 0);
      if (failures) warnings.push(`WARNING: ${target.name}: ${failures} errors or non-2xx answers under load.`);
      return `| ${[target.name, of("rps"), of("p50"), of("p99"), ...ratios, met].join(" | ")} |`;
    });
    if (values.count !== undefined) figures.push(await measureScale(partial, secret, count, log));

    const report = [
      `\`${command}\`, ${new Date().toISOString().slice(0, 10)}: ${count} pets seeded,` +
        ` wrangler dev --log-level ${values["log-level"]}, ${connections} connections, medians of ${rounds}` +
        ` interleaved rounds of ${duration} s (ratios: median of the per-round ratios), ${availableParallelism()} cores.`,
      "",
      "| Target | req/s | p50 ms | p99 ms | x bare | x one query | x one limit | x limit + query | target |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
      ...rows,
      "",
      ...figures.map((line) => `- ${line}`),
      ...warnings,
    ].join("\n");
    console.log(`\n${report}\n`);
    writeFileSync(path.join(RUN_DIR, "..", "last.md"), `${report}\n`);
    log(`written to .wrangler/bench/last.md; took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await Promise.all([api.stop(), reference.stop()]);
  }
};

main().catch((error: Error) => {
  console.error(`[bench] failed: ${error.message}`);
  process.exit(1);
});
