// `npm run bench [-- --count N --duration S --rounds R --connections C --log-level L]`
//
// Measures the API under `wrangler dev` against reference Workers on the same runtime:
// bench/bare (answers `[]`), bench/one-query (one `SELECT 1` on a local D1, "the
// one-query floor") and bench/one-limit (one rate-limit call). In one run it:
//   1. builds the production bundle (`wrangler deploy --dry-run --outdir`) and
//      reports its size, raw and gzip, and the startup CPU time (`wrangler check startup`);
//   2. makes a scratch D1 and KV under .wrangler/bench/run (the developer's
//      .wrangler/state and .dev.vars are not touched), seeds N pets (scripts/seed.ts)
//      and issues a key there;
//   3. starts the API (bench/instrumented-api.ts, which reports each request's
//      storage round trips) and the references with `wrangler dev`;
//   4. reads the round trips of each endpoint on a warm isolate, then drives every
//      target with autocannon (C connections, default 8) for S seconds in turn,
//      each after a 1 s pause, R rounds, interleaved, and reports medians and
//      ratios to the references;
//   5. with --count, also times a partial page reached through a cursor halfway
//      into the pets (after at most 50,000) against the first one.
// The figures go to the terminal and to .wrangler/bench/last.json and last.md.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import {
  COUNT_REQUEST_HEADER,
  parseRoundTrips,
  ROUND_TRIPS_HEADER,
  type RoundTrips,
  WORKER_HEADER,
} from "../bench/headers";
import { writeCursor } from "../src/cursor";
import { LIST_LIMIT } from "../src/schemas";
import { type DevServer, startDevServer } from "./dev-server";
import { createKey } from "./keys";
import { PENDING_PETS, seedPets } from "./seed";
import { targetArgs } from "./target";
import { wrangler } from "./wrangler";

const BENCH_DIR = ".wrangler/bench";
const RUN_DIR = path.join(BENCH_DIR, "run");
const GZIP_TARGET_BYTES = 60 * 1024;
const SCALE_TARGET = 1.5;
const SCALE_DEPTH = 50_000;
const SCALE_SAMPLES = 200;
const WARM_UP_REQUESTS = 5;
const SETTLE_MS = 1000;
const STARTUP_RUNS = 5;
// Enough pets for a full first page and a real index, yet quick to seed.
const DEFAULT_COUNT = 1000;

// ---------------------------------------------------------------------------- options

const { values: options } = parseArgs({
  options: {
    count: { type: "string" },
    // More, shorter rounds pair each target with the references more closely in
    // time, which matters on a machine that other work shares; with 7 rounds, one
    // disturbed round moves no median.
    duration: { type: "string", default: "3" },
    rounds: { type: "string", default: "7" },
    connections: { type: "string", default: "8" },
    // wrangler dev's own default, presumably how the reference figures were
    // taken. Its line per request costs the dev server CPU: in trials here
    // `--log-level warn` raised the bare reference's req/s by 10% to 100%, which makes
    // the ratios to it harsher.
    "log-level": { type: "string", default: "log" },
  },
});
const positiveInteger = (name: string, text: string) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer.`);
  return value;
};
const count = options.count === undefined ? DEFAULT_COUNT : positiveInteger("count", options.count);
const duration = positiveInteger("duration", options.duration);
const rounds = positiveInteger("rounds", options.rounds);
const connections = positiveInteger("connections", options.connections);
const logLevel = options["log-level"];
const scaleRun = options.count !== undefined;
if (count <= LIST_LIMIT.default) throw new Error(`--count must exceed ${LIST_LIMIT.default}, for a full first page.`);
const command = ["npm run bench", ...(process.argv.length > 2 ? ["--", ...process.argv.slice(2)] : [])].join(" ");

// ---------------------------------------------------------------------------- helpers

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const percentile = (numbers: number[], p: number) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
const log = (message: string) => console.log(`[bench] ${message}`);

/** Columns padded to their widest cell. */
const textTable = (rows: string[][]) => {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ")).join("\n");
};
const markdownTable = (rows: string[][]) =>
  rows
    .map((row, index) => {
      const line = `| ${row.join(" | ")} |`;
      return index === 0 ? `${line}\n|${row.map(() => " --- |").join("")}` : line;
    })
    .join("\n");

// ---------------------------------------------------------------------------- bundle and startup

/** The production bundle, as `wrangler deploy` would upload it (source map excluded, as wrangler's own figure). */
const measureBundle = () => {
  const outdir = mkdtempSync(path.join(tmpdir(), "petstore-bundle-"));
  try {
    wrangler(["deploy", "--dry-run", "--env", "production", "--outdir", outdir]);
    const code = readFileSync(path.join(outdir, "index.js"));
    return { rawBytes: code.length, gzipBytes: gzipSync(code).length };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};

type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
};

/**
 * `wrangler check startup` (an alpha command) profiles the Worker's top-level evaluation
 * in a local workerd and writes a V8 CPU profile. The startup CPU time is the
 * sampled time that was not idle: V8 gives each sample the microseconds since the
 * previous one. Sampling is about every millisecond and a busy machine stretches
 * the gaps, so it is an estimate: the median of STARTUP_RUNS runs is reported,
 * with the lowest.
 */
const measureStartup = () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "petstore-startup-"));
  try {
    const runs = Array.from({ length: STARTUP_RUNS }, (_, run) => {
      const outfile = path.join(scratch, `startup-${run}.cpuprofile`);
      wrangler(["check", "startup", "--env", "production", "--outfile", outfile]);
      const profile = JSON.parse(readFileSync(outfile, "utf8")) as CpuProfile;
      const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === "(idle)").map((n) => n.id));
      const busyMicroseconds = profile.samples.reduce(
        (sum, node, index) => (idle.has(node) ? sum : sum + (profile.timeDeltas[index] ?? 0)),
        0,
      );
      return busyMicroseconds / 1000;
    });
    return { cpuMs: median(runs), minMs: Math.min(...runs), runsMs: runs };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

// ---------------------------------------------------------------------------- targets

type Target = {
  name: string;
  worker: DevServer;
  path: string;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  /** What a correct answer looks like; checked once before the load. */
  check: (response: Response, body: unknown) => string | undefined;
  goal?: { ratio: number; reference: "bare" | "floor" };
};

const expectStatus = (response: Response, status: number) =>
  response.status === status ? undefined : `answered ${response.status}, expected ${status}`;
const expectPage = (full: boolean) => (response: Response, body: unknown) => {
  const wrong = expectStatus(response, 200);
  if (wrong || !Array.isArray(body)) return wrong ?? "did not answer an array";
  if (full && body.length !== LIST_LIMIT.default) return `answered ${body.length} pets, expected a full page`;
  if (!full && (body.length === 0 || body.length >= LIST_LIMIT.default)) {
    return `answered ${body.length} pets, expected a partial page (1 to ${LIST_LIMIT.default - 1})`;
  }
  return undefined;
};

const send = async (target: Target, extraHeaders: Record<string, string> = {}) => {
  const response = await fetch(new URL(target.path, target.worker.origin), {
    method: target.method ?? "GET",
    headers: { ...target.headers, ...extraHeaders },
    body: target.body,
  });
  const text = await response.text();
  return { response, body: text ? (JSON.parse(text) as unknown) : undefined };
};

/** The header of the last of a few requests, so that the isolate and any cache are warm. */
const roundTrips = async (target: Target): Promise<RoundTrips | undefined> => {
  let last: Response | undefined;
  for (let index = 0; index < WARM_UP_REQUESTS; index++) {
    last = (await send(target, { [COUNT_REQUEST_HEADER]: "1" })).response;
  }
  return parseRoundTrips(last?.headers.get(ROUND_TRIPS_HEADER) ?? null);
};

type Sample = { rps: number; p50: number; p99: number; failures: number };

/**
 * A pause between two loads. A target's work does not end with its last response
 * (wrangler relays each request's log line to its Node process, workerd collects
 * garbage), and on a shared 2-core machine what is left would be charged to the
 * next target.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

const load = async (target: Target, seconds: number): Promise<Sample> => {
  const result = await autocannon({
    url: new URL(target.path, target.worker.origin).toString(),
    connections,
    duration: seconds,
    method: target.method ?? "GET",
    headers: target.headers,
    body: target.body,
  });
  const expected = target.method === "POST" ? 201 : 200;
  const wrongStatus = result.requests.total - (result.statusCodeStats?.[`${expected}`]?.count ?? 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + Math.max(0, wrongStatus),
  };
};

// ---------------------------------------------------------------------------- scale

/** Sequential requests, alternating between the two pages, timed to the end of the body. */
const compareScale = async (first: Target, deep: Target) => {
  const times: Record<"first" | "deep", number[]> = { first: [], deep: [] };
  for (let index = 0; index < SCALE_SAMPLES + 20; index++) {
    for (const [kind, target] of [
      ["first", first],
      ["deep", deep],
    ] as const) {
      const started = performance.now();
      await send(target);
      // The first 20 of each warm the isolate and SQLite's page cache.
      if (index >= 20) times[kind].push(performance.now() - started);
    }
  }
  const firstMs = median(times.first);
  const deepMs = median(times.deep);
  return {
    samples: SCALE_SAMPLES,
    first: { p50Ms: firstMs, p99Ms: percentile(times.first, 99) },
    deep: { p50Ms: deepMs, p99Ms: percentile(times.deep, 99) },
    ratio: deepMs / firstMs,
    target: SCALE_TARGET,
    met: deepMs / firstMs <= SCALE_TARGET,
  };
};

/**
 * The partial page (status=pending) reached through a cursor after `afterPets`
 * pets, signed like the API signs it, against the first partial page.
 */
const measureScale = async (persistTo: string, secret: string, first: Target) => {
  const afterPets = Math.min(SCALE_DEPTH, Math.floor(count / 2));
  log(`scale: partial page after ${afterPets} pets vs the first (${SCALE_SAMPLES} sequential requests each)`);
  const query = `SELECT id FROM pets ORDER BY id LIMIT 1 OFFSET ${afterPets - 1}`;
  const output = wrangler([
    "d1",
    "execute",
    "DB",
    ...targetArgs({ remote: false, persistTo }),
    "--json",
    "--command",
    query,
  ]);
  const [{ results }] = JSON.parse(output) as [{ results: { id: number }[] }];
  const afterId = results[0]?.id;
  if (afterId === undefined) throw new Error(`No pet number ${afterPets} in the scratch database.`);
  const cursor = await writeCursor({ CURSOR_SECRET: secret }, { afterId, status: "pending" });
  const deep: Target = { ...first, name: "deep partial page", path: `${first.path}&cursor=${cursor}` };
  const { response, body } = await send(deep);
  const problem = expectPage(false)(response, body);
  if (problem) throw new Error(`The page after ${afterPets} pets ${problem}: ${JSON.stringify(body)}`);
  return { afterPets, ...(await compareScale(first, deep)) };
};

// ---------------------------------------------------------------------------- report

type Result = {
  name: string;
  method: string;
  path: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  roundsRps: number[];
  toBare: number;
  toFloor: number;
  toLimit: number;
  goal?: Target["goal"] & { met: boolean };
  roundTrips?: RoundTrips;
};

type Report = {
  results: Result[];
  bundle: ReturnType<typeof measureBundle> & { targetGzipBytes: number };
  startup: ReturnType<typeof measureStartup>;
  scale?: Awaited<ReturnType<typeof measureScale>>;
  seedSeconds: number;
};

const verdict = (met: boolean) => (met ? "met" : "NOT met");

/** Prints the figures and writes them to .wrangler/bench/last.json, and as Markdown to last.md for the README. */
const report = ({ results, bundle, startup, scale, seedSeconds }: Report) => {
  const rows = [
    ["Endpoint", "req/s", "p50 ms", "p99 ms", "x bare", "x floor", "x limit", "target", "D1/req", "KV/req"],
    ...results.map((result) => [
      result.name,
      result.rps.toFixed(0),
      result.p50Ms.toFixed(0),
      result.p99Ms.toFixed(0),
      result.toBare.toFixed(2),
      result.toFloor.toFixed(2),
      result.toLimit.toFixed(2),
      result.goal ? `>= ${result.goal.ratio}x ${result.goal.reference}: ${verdict(result.goal.met)}` : "",
      String(result.roundTrips?.d1 ?? ""),
      String(result.roundTrips?.kv ?? ""),
    ]),
  ];
  const gzipMet = bundle.gzipBytes <= bundle.targetGzipBytes;
  const lines = [
    `Bundle (wrangler deploy --dry-run --env production): ${kib(bundle.rawBytes)} raw, ${kib(bundle.gzipBytes)} gzip` +
      ` (target <= ${kib(bundle.targetGzipBytes)} gzip: ${verdict(gzipMet)})`,
    `Startup CPU (wrangler check startup, non-idle profile samples): median ${startup.cpuMs.toFixed(1)} ms,` +
      ` lowest ${startup.minMs.toFixed(1)} ms (runs: ${startup.runsMs.map((ms) => ms.toFixed(1)).join(", ")})`,
  ];
  if (scale) {
    lines.push(
      `Scale (${count} pets, ${scale.samples} sequential requests each): partial page after ${scale.afterPets} pets` +
        ` p50 ${scale.deep.p50Ms.toFixed(2)} ms (p99 ${scale.deep.p99Ms.toFixed(2)}) vs the first partial page` +
        ` p50 ${scale.first.p50Ms.toFixed(2)} ms (p99 ${scale.first.p99Ms.toFixed(2)}):` +
        ` ${scale.ratio.toFixed(2)}x (target <= ${scale.target}x: ${verdict(scale.met)})`,
    );
  }
  const setting =
    `${count} pets seeded (at most ${PENDING_PETS} pending), wrangler dev --log-level ${logLevel}, ${connections} connections,` +
    ` medians of ${rounds} interleaved rounds of ${duration} s (ratios: median of the per-round ratios), autocannon in the same process, ${availableParallelism()} cores`;
  const notes = [
    `${setting}.`,
    "D1/req, KV/req: storage round trips of one request on a warm isolate, counted by bench/count-bindings.ts.",
    "x limit: to the bare Worker plus one rate-limit call (bench/one-limit), which every authenticated request makes; under wrangler dev the binding is a Durable Object that writes SQLite on each call.",
    ...results
      .filter((result) => result.failures > 0)
      .map((result) => `WARNING: ${result.name} had ${result.failures} failed or unexpected answers.`),
  ];
  console.log(`\n${command}\n\n${textTable(rows)}\n\n${lines.join("\n")}\n\n${notes.join("\n")}`);

  const date = new Date().toISOString();
  const json = {
    date,
    command,
    settings: { count, connections, rounds, durationSeconds: duration, logLevel, cores: availableParallelism() },
    node: process.version,
    seedSeconds,
    results,
    bundle,
    startup,
    scale,
  };
  writeFileSync(path.join(BENCH_DIR, "last.json"), `${JSON.stringify(json, null, 2)}\n`);
  const markdown = [
    `Measured on ${date.slice(0, 10)} with \`${command}\` (${setting}):`,
    "",
    markdownTable(rows),
    "",
    ...lines.map((line) => `- ${line}`),
  ];
  writeFileSync(path.join(BENCH_DIR, "last.md"), `${markdown.join("\n")}\n`);
  log(`written ${BENCH_DIR}/last.json and ${BENCH_DIR}/last.md`);
};

// ---------------------------------------------------------------------------- main

const main = async () => {
  const started = performance.now();
  log(`count ${count}, ${connections} connections, ${rounds} rounds of ${duration} s per target`);

  log("bundle: wrangler deploy --dry-run --env production");
  const bundle = { ...measureBundle(), targetGzipBytes: GZIP_TARGET_BYTES };
  log(`startup: wrangler check startup (${STARTUP_RUNS} runs)`);
  const startup = measureStartup();

  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  const persistTo = path.resolve(RUN_DIR, "state");
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  // Given to wrangler dev instead of the developer's .dev.vars.
  const envFile = path.resolve(RUN_DIR, "bench.env");
  writeFileSync(envFile, `CURSOR_SECRET=${secret}\n`, { mode: 0o600 });

  log(`seeding ${count} pets into ${RUN_DIR}`);
  const seedSeconds = seedPets({ count, persistTo });
  log(`seeded in ${seedSeconds.toFixed(1)} s`);
  const key = await createKey("bench", { remote: false, persistTo });

  log("starting the API and the references with wrangler dev");
  /**
   * A Worker counts as up once it answers with `X-Bench-Worker: <name>` (bench/headers.ts),
   * so that another server on its port is not measured instead.
   */
  const startWorker = (name: string, args: string[], secrets: Record<string, string> = {}) =>
    startDevServer({
      name,
      command: "wrangler dev",
      args: [...args, "--env-file", envFile, "--log-level", logLevel],
      // Each Worker keeps its own state: Miniflare 5 holds SQLite files there that two
      // instances starting at once would contend for (SQLITE_BUSY).
      persistTo: name === "api" ? persistTo : path.resolve(RUN_DIR, `${name}-state`),
      env: secrets,
      probe: { path: "/", isOurs: (response) => response.headers.get(WORKER_HEADER) === name },
    });
  const [api, bare, floor, limited] = await Promise.all([
    startWorker("api", ["bench/instrumented-api.ts", "--config", "wrangler.toml", "--name", "petstore-bench-api"], {
      CURSOR_SECRET: secret,
    }),
    startWorker("bare", ["--config", "bench/bare/wrangler.toml"]),
    startWorker("one-query", ["--config", "bench/one-query/wrangler.toml"]),
    startWorker("one-limit", ["--config", "bench/one-limit/wrangler.toml"]),
  ]);
  try {
    const auth = { Authorization: `Bearer ${key}` };
    const endpoints: Target[] = [
      {
        name: "GET /v1/pets (full first page)",
        worker: api,
        path: "/v1/pets",
        headers: auth,
        check: expectPage(true),
        goal: { ratio: 0.8, reference: "bare" },
      },
      {
        name: "GET /v1/pets?status=pending (partial page)",
        worker: api,
        path: "/v1/pets?status=pending",
        headers: auth,
        check: expectPage(false),
        goal: { ratio: 0.9, reference: "floor" },
      },
      {
        name: "GET /v1/pets/{id}",
        worker: api,
        path: `/v1/pets/${Math.ceil(count / 2)}`,
        headers: auth,
        check: (response) => expectStatus(response, 200),
        goal: { ratio: 0.8, reference: "bare" },
      },
      {
        name: "POST /v1/pets",
        worker: api,
        path: "/v1/pets",
        method: "POST",
        body: JSON.stringify({ name: "Bench pet", categoryId: 1 }),
        headers: { ...auth, "Content-Type": "application/json" },
        check: (response) => expectStatus(response, 201),
        goal: { ratio: 0.9, reference: "floor" },
      },
    ];
    const references: Target[] = [
      { name: "reference: bare Worker", worker: bare, path: "/", check: (r) => expectStatus(r, 200) },
      { name: "reference: one-query floor", worker: floor, path: "/", check: (r) => expectStatus(r, 200) },
      { name: "reference: bare + one rate-limit call", worker: limited, path: "/", check: (r) => expectStatus(r, 200) },
    ];
    const targets = [...endpoints, ...references];

    for (const target of targets) {
      const { response, body } = await send(target);
      const problem = target.check(response, body);
      if (problem) throw new Error(`${target.name} ${problem}: ${JSON.stringify(body)}`);
    }

    log("round trips per request (warm isolate)");
    const trips = new Map<Target, RoundTrips | undefined>();
    for (const target of endpoints) trips.set(target, await roundTrips(target));

    log("warming up every target (1 s each)");
    for (const target of targets) await load(target, 1);

    const samples = new Map<Target, Sample[]>(targets.map((target) => [target, []]));
    for (let round = 0; round < rounds; round++) {
      // Each round starts one target later, so that no target always follows the same one.
      const order = targets.map((_, index) => targets[(index + round) % targets.length] as Target);
      log(`round ${round + 1}/${rounds}`);
      for (const target of order) {
        await settle();
        samples.get(target)?.push(await load(target, duration));
      }
    }

    const summary = (target: Target) => {
      const list = samples.get(target) ?? [];
      return {
        rps: median(list.map((sample) => sample.rps)),
        p50Ms: median(list.map((sample) => sample.p50)),
        p99Ms: median(list.map((sample) => sample.p99)),
        failures: list.reduce((sum, sample) => sum + sample.failures, 0),
        roundsRps: list.map((sample) => Math.round(sample.rps)),
      };
    };
    // Ratios are taken within each round, then the median: a round's targets ran
    // within seconds of each other, so a load that comes and goes on the machine
    // moves both sides of a ratio alike.
    const rpsOf = (target: Target) => (samples.get(target) ?? []).map((sample) => sample.rps);
    const ratioTo = (target: Target, reference: Target) => {
      const theirs = rpsOf(reference);
      return median(rpsOf(target).map((rps, round) => rps / (theirs[round] ?? Number.NaN)));
    };
    const results = targets.map((target): Result => {
      const figures = summary(target);
      const ratios = {
        toBare: ratioTo(target, references[0] as Target),
        toFloor: ratioTo(target, references[1] as Target),
        toLimit: ratioTo(target, references[2] as Target),
      };
      const goal = target.goal;
      const achieved = goal ? (goal.reference === "bare" ? ratios.toBare : ratios.toFloor) : undefined;
      return {
        name: target.name,
        method: target.method ?? "GET",
        path: target.path,
        ...figures,
        ...ratios,
        goal: goal && { ...goal, met: (achieved ?? 0) >= goal.ratio },
        roundTrips: trips.get(target),
      };
    });

    const scale = scaleRun ? await measureScale(persistTo, secret, endpoints[1] as Target) : undefined;
    report({ results, bundle, startup, scale, seedSeconds });
    log(`took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await Promise.all([api, bare, floor, limited].map((worker) => worker.stop()));
  }
};

main().catch((error: Error) => {
  console.error(`[bench] failed: ${error.message}`);
  process.exit(1);
});
