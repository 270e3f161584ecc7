// `npm run bench:segments [-- --rounds R --warm-up W --requests N --count N]`: what segments
// cost (docs/architecture.md, "Segments"), side by side in one run: the API on one segment and
// on three (N pets in each; segments 0 and 1 closed, 2 open, laid out by `npm run segment:open`).
// Counted by callgrind as `npm run bench` counts (bench/README.md): the first page, getPet and
// POST, each with three segments over one (at most +2%); a partial page that crosses from
// segment 0 into 1 beside the same filter on one segment, reported. Then timed, on the same two
// servers without callgrind: creates a second, and the crossing page's median latency.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { wrangler } from "../scripts/lib/wrangler";
import { seedSql } from "../scripts/seed";
import { configCopy } from "../scripts/segments/layout";
import { openNextSegment } from "../scripts/segments/open";
import { startBenchServer } from "./bench-server";
import { countedProcess } from "./callgrind";
import { load } from "./load";
import { instructionsRow, timedVerdict } from "./segments-report";
import { prepareApi } from "./servers";
import { apiTargets, check, median, type Target } from "./targets";
import { BENCH_V8_FLAGS } from "./v8-flags";

const RUN_DIR = path.resolve(".wrangler/bench/segments");
const CALLGRIND_DIR = path.join(RUN_DIR, "callgrind");

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "4" },
    "warm-up": { type: "string", default: "1" },
    requests: { type: "string", default: "200" },
    count: { type: "string", default: "1000" },
  },
});
const [rounds, warmUp, requests, count] = [values.rounds, values["warm-up"], values.requests, values.count].map(
  Number,
) as [number, number, number, number];
const log = (message: string) => console.log(`[bench:segments] ${message}`);

/** The API's state with three segments: N pets seeded in each, as the deployment grew. */
const prepareThree = async (runDir: string) => {
  const prepared = await prepareApi(runDir, count, log);
  // A configuration of its own for segment:open to edit.
  const config = configCopy(runDir);
  const seed = path.join(runDir, "seed.sql");
  writeFileSync(seed, seedSql(count));
  for (const binding of ["PETS_1", "PETS_2"]) {
    log(`opening ${binding}, and seeding ${count} pets into it`);
    await openNextSegment(["--config", config, "--persist-to", prepared.persistTo]);
    wrangler([
      "d1",
      "execute",
      binding,
      "--local",
      "--persist-to",
      prepared.persistTo,
      "--config",
      config,
      "--file",
      seed,
    ]);
  }
  return { ...prepared, config };
};

/** The targets judged, and the crossing page, on the server at `origin`. */
const targetsOf = (origin: string, auth: Record<string, string>): Record<string, Target> => {
  const { firstPage, getPet, create } = apiTargets(origin, auth, count);
  const crossing: Target = {
    name: "GET /v1/pets?status=pending&limit=25 (partial page)",
    url: `${origin}/v1/pets?status=pending&limit=25`,
    headers: auth,
    ok: (status, body) => status === 200 && Array.isArray(body) && body.length > 0 && body.length < 25,
    goal: "d1",
    settleMs: 1000,
  };
  return { firstPage, getPet, create, crossing };
};

const counted = async () => {
  const env = {
    MINIFLARE_WORKERD_V8_FLAGS: BENCH_V8_FLAGS,
    MINIFLARE_WORKERD_PATH: path.resolve("bench/callgrind-workerd.sh"),
    BENCH_WORKERD: (createRequire(import.meta.url)("workerd") as { default: string }).default,
    BENCH_CALLGRIND_DIR: CALLGRIND_DIR,
  };
  for (const side of ["one", "three"]) mkdirSync(path.join(RUN_DIR, side), { recursive: true });
  const one = await prepareApi(path.join(RUN_DIR, "one"), count, log);
  const three = await prepareThree(path.join(RUN_DIR, "three"));
  const start = (name: string, state: { persistTo: string; envFile: string }, config: string[]) =>
    startBenchServer({
      name,
      command: "wrangler dev",
      args: [...config, "--name", `petstore-bench-${name}`, "--env-file", state.envFile, "--log-level", "log"],
      persistTo: state.persistTo,
      env,
    });
  const servers = { one: await start("one", one, []), three: await start("three", three, ["--config", three.config]) };
  try {
    const targets = {
      one: targetsOf(servers.one.origin, one.auth),
      three: targetsOf(servers.three.origin, three.auth),
    };
    for (const side of [targets.one, targets.three]) for (const target of Object.values(side)) await check(target);
    const counting = (server: { pid: number; inspectorPort: string }) => ({
      pid: countedProcess(CALLGRIND_DIR, server.pid),
      inspectorPort: server.inspectorPort,
    });
    const sides = { one: counting(servers.one), three: counting(servers.three) };
    const options = { callgrindDir: CALLGRIND_DIR, requests, connections: 2 };
    const results = new Map<string, { one: number; three: number }[]>();
    for (let round = -warmUp; round < rounds; round++) {
      log(round < 0 ? "warm-up, not counted" : `round ${round + 1} of ${rounds}`);
      for (const name of Object.keys(targets.one)) {
        const order = round % 2 === 0 ? (["one", "three"] as const) : (["three", "one"] as const);
        const perRequest = { one: 0, three: 0 };
        for (const side of order)
          perRequest[side] = (await load(targets[side][name] as Target, sides[side], options)).perRequest;
        if (round >= 0) results.set(name, [...(results.get(name) ?? []), perRequest]);
      }
    }
    const lines = [
      "| Target | Three segments, million instructions | One segment's | Over it | Goal |",
      "| --- | --- | --- | --- | --- |",
    ];
    for (const [name, runs] of results) {
      const [three, onlyOne] = [median(runs.map((run) => run.three)), median(runs.map((run) => run.one))];
      const reported = name === "crossing" ? "reported: with three it crosses from segment 0 into 1" : undefined;
      lines.push(instructionsRow(targets.three[name]?.name ?? name, three, onlyOne, reported));
    }
    return { lines, states: { one, three } };
  } finally {
    await Promise.all([servers.one.stop(), servers.three.stop()]);
  }
};

/** The page after the crossing one, in the last segment alone, on three segments: the link of its `next`. */
const pageInLastSegment = async (crossing: Target, origin: string) => {
  const response = await fetch(crossing.url, { headers: crossing.headers });
  await response.arrayBuffer();
  const query = /<\?([^>]*)>; rel="next"/.exec(response.headers.get("Link") ?? "")?.[1];
  if (!query) throw new Error(`${crossing.name} links to no next page`);
  return `${origin}/v1/pets?${query}`;
};

/**
 * Timed, on the same states without callgrind, each side in turn: creates a second, and the
 * median latency of a partial page that reads one segment (on three, one in the last segment),
 * and of the page that crosses two.
 */
const timed = async (states: Awaited<ReturnType<typeof counted>>["states"]) => {
  const start = (name: string, state: { persistTo: string; envFile: string }, config: string[]) =>
    startBenchServer({
      name: `${name} (timed)`,
      command: "wrangler dev",
      args: [...config, "--name", `petstore-bench-${name}-timed`, "--env-file", state.envFile],
      persistTo: state.persistTo,
    });
  const servers = {
    one: await start("one", states.one, []),
    three: await start("three", states.three, ["--config", states.three.config]),
  };
  try {
    const targets = {
      one: targetsOf(servers.one.origin, states.one.auth),
      three: targetsOf(servers.three.origin, states.three.auth),
    };
    const pages = {
      one: targets.one.crossing?.url ?? "",
      three: await pageInLastSegment(targets.three.crossing as Target, servers.three.origin),
    };
    const measured = {
      creates: { one: [] as number[], three: [] as number[] },
      page: { one: [] as number[], three: [] as number[] },
      crossing: [] as number[],
    };
    const timedLoad = async (url: string, target: Target) =>
      autocannon({
        url,
        method: target.method ?? "GET",
        headers: target.headers,
        body: target.body,
        connections: 8,
        duration: 10,
      });
    for (let round = 0; round < 2; round++) {
      for (const side of round % 2 ? (["three", "one"] as const) : (["one", "three"] as const)) {
        const { create, crossing } = targets[side] as { create: Target; crossing: Target };
        measured.creates[side].push((await timedLoad(create.url, create)).requests.average);
        measured.page[side].push((await timedLoad(pages[side], crossing)).latency.p50);
        if (side === "three") measured.crossing.push((await timedLoad(crossing.url, crossing)).latency.p50);
      }
    }
    const createsShare = median(measured.creates.three) / median(measured.creates.one);
    const pageShare = median(measured.page.one) / median(measured.page.three);
    const verdict = timedVerdict;
    return [
      `Creates a second with three segments: ${median(measured.creates.three).toFixed(0)}, one segment: ${median(measured.creates.one).toFixed(0)}: ${verdict(createsShare)}.`,
      `A partial page of one segment, its median latency with three segments: ${median(measured.page.three)} ms, one segment: ${median(measured.page.one)} ms: its speed ${verdict(pageShare)}.`,
      `The page that crosses from segment 0 into 1 (two queries, one after the other): ${median(measured.crossing)} ms, reported.`,
    ];
  } finally {
    await Promise.all([servers.one.stop(), servers.three.stop()]);
  }
};

const main = async () => {
  execFileSync("valgrind", ["--version"], { stdio: "pipe" });
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(CALLGRIND_DIR, { recursive: true });
  const { lines, states } = await counted();
  const text = [
    `\`npm run bench:segments -- --rounds ${rounds} --warm-up ${warmUp} --requests ${requests} --count ${count}\`: ${count} pets a segment, instructions per answered request (callgrind), medians of the rounds.`,
    "",
    ...lines,
    "",
    ...(await timed(states)),
  ].join("\n");
  console.log(`\n${text}\n`);
  writeFileSync(path.join(RUN_DIR, "..", "segments.md"), `${text}\n`);
};

main().catch((error: Error) => {
  console.error(`[bench:segments] failed: ${error.message}`);
  process.exit(1);
});
