// `npm run bench:write-scaling`: a simulation, not a test of the product. Segments lift the
// storage ceiling, not the write rate: every create still goes to one primary. Two ways past
// that, walked here over N in-memory shards with creates interleaved between the pages of
// walks, counting each page's calls to storage and what a walk sees (docs/architecture.md,
// "Write scaling, on paper"):
// - hash shards, each walked by a cursor of its own (a position per shard), a page merging
//   the next rows of every shard: N calls a page; exactly once, but a pet created during a
//   walk, with an id below one the walk already passed on another shard, comes after it;
// - a watermark: a page reads every shard's highest id taken, raises every other shard's next
//   id past the highest of them (none takes an id at or below it afterwards), and returns rows
//   up to it: 3N − 1 calls a page, N − 1 of them writes, ascending order kept.

type Pet = { id: number };
type Shard = { pets: Pet[]; next: number };

/** A deterministic generator (mulberry32), so that a run's figures are the same every time. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** N shards whose ids interleave (shard s takes s, s + N, s + 2N ...), as ids without a central counter do. */
const shardsOf = (count: number): Shard[] =>
  Array.from({ length: count }, (_, index) => ({ pets: [], next: index + 1 }));
const create = (shards: Shard[], draw: () => number) => {
  const shard = shards[Math.floor(draw() * shards.length)] as Shard;
  shard.pets.push({ id: shard.next });
  shard.next += shards.length;
};

type Walk = { calls: number; pages: number; seen: number[]; owed: Set<number> };

/** One page of a walk by per-shard cursors: a query per shard, the `limit` lowest ids merged. */
const hashPage = (shards: Shard[], cursors: number[], limit: number, walk: Walk) => {
  const candidates = shards.flatMap((shard, index) =>
    shard.pets
      .filter(({ id }) => id > (cursors[index] as number))
      .slice(0, limit)
      .map(({ id }) => ({ id, index })),
  );
  walk.calls += shards.length;
  const page = candidates.sort((a, b) => a.id - b.id).slice(0, limit);
  for (const { id, index } of page) cursors[index] = id;
  walk.seen.push(...page.map(({ id }) => id));
  return page.length === limit;
};

/**
 * One page of a walk under a watermark: the highest id each shard has taken, then every other
 * shard's next id raised past the highest of them (so that none takes an id at or below it
 * afterwards), then the rows up to it.
 */
const watermarkPage = (shards: Shard[], state: { after: number }, limit: number, walk: Walk) => {
  const watermark = Math.max(...shards.map((shard) => shard.next - 1));
  walk.calls += shards.length; // each shard's highest id taken
  // Each shard keeps its own ids (s, s + N ...): the first of them past the watermark.
  shards.forEach((shard, index) => {
    const past = watermark + 1 + ((((index + 1 - (watermark + 1)) % shards.length) + shards.length) % shards.length);
    shard.next = Math.max(shard.next, past);
  });
  walk.calls += shards.length - 1; // the other shards' next ids raised past it: writes on the read path
  const rows = shards.flatMap((shard) => shard.pets.filter(({ id }) => id > state.after && id <= watermark));
  walk.calls += shards.length; // each shard's rows up to the watermark
  const page = rows.sort((a, b) => a.id - b.id).slice(0, limit);
  walk.seen.push(...page.map(({ id }) => id));
  if (page.length > 0) state.after = page.at(-1)?.id ?? state.after;
  return page.length === limit;
};

const simulate = (count: number, strategy: "hash" | "watermark", seed: number) => {
  const draw = random(seed);
  const shards = shardsOf(count);
  for (let index = 0; index < 200; index++) create(shards, draw);
  const walk: Walk = {
    calls: 0,
    pages: 0,
    seen: [],
    owed: new Set(shards.flatMap(({ pets }) => pets.map(({ id }) => id))),
  };
  const cursors = shards.map(() => 0);
  const state = { after: 0 };
  for (let more = true; more && walk.pages < 10_000; ) {
    more = strategy === "hash" ? hashPage(shards, cursors, 20, walk) : watermarkPage(shards, state, 20, walk);
    walk.pages++;
    // Creates between the pages, owed to the walk (created before its last page).
    for (let index = 0; index < 5; index++) create(shards, draw);
    if (more) for (const shard of shards) for (const { id } of shard.pets) walk.owed.add(id);
  }
  const inversions = walk.seen.filter((id, index) => index > 0 && id < (walk.seen[index - 1] as number)).length;
  const once = new Set(walk.seen).size === walk.seen.length;
  const missed = [...walk.owed].filter((id) => !walk.seen.includes(id)).length;
  return { callsPerPage: walk.calls / walk.pages, inversions, once, missed };
};

console.log("| Shards | Strategy | Calls a page | Walks out of order (of 20) | Exactly once | Owed pets missed |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const count of [1, 2, 4, 8, 16]) {
  for (const strategy of ["hash", "watermark"] as const) {
    const runs = Array.from({ length: 20 }, (_, seed) => simulate(count, strategy, seed + 1));
    const calls = runs.reduce((sum, run) => sum + run.callsPerPage, 0) / runs.length;
    const outOfOrder = runs.filter((run) => run.inversions > 0).length;
    const once = runs.every((run) => run.once);
    const missed = runs.reduce((sum, run) => sum + run.missed, 0);
    console.log(
      `| ${count} | ${strategy} | ${calls.toFixed(1)} | ${outOfOrder} | ${once ? "yes" : "no"} | ${missed} |`,
    );
  }
}
