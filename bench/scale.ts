// Whether a page deep into the listing costs what the first one does (keyset pagination).
import { writeCursor } from "../src/pets/cursor";
import { check, median, p99, send, type Target, verdict } from "./targets";

const SCALE_SAMPLES = 200;

/** The partial page reached through a cursor deep into the pets against the first one, by sequential requests. */
export const measureScale = async (first: Target, secret: string, count: number, log: (message: string) => void) => {
  const afterPets = Math.min(50_000, Math.floor(count / 2));
  log(`scale: the partial page after ${afterPets} pets vs the first`);
  // The scratch database is new, so the pets' ids run from 1 to count.
  const cursor = await writeCursor({ CURSOR_SECRET: secret }, { afterId: afterPets, status: "pending" });
  const deep = { ...first, name: `partial page after ${afterPets} pets`, url: `${first.url}&cursor=${cursor}` };
  await check(deep);
  const times: [number[], number[]] = [[], []];
  for (let index = 0; index < SCALE_SAMPLES + 20; index++) {
    for (const [which, target] of [first, deep].entries()) {
      const started = performance.now();
      await (await send(target)).arrayBuffer();
      // The first 20 of each warm up the isolate and SQLite's page cache.
      if (index >= 20) times[which]?.push(performance.now() - started);
    }
  }
  const [firstMs, deepMs] = times;
  const ratio = median(deepMs) / median(firstMs);
  const figures = (ms: number[]) => `p50 ${median(ms).toFixed(2)} ms (p99 ${p99(ms).toFixed(2)})`;
  return (
    `Scale (${count} pets, ${SCALE_SAMPLES} sequential requests each): ${deep.name} ${figures(deepMs)}` +
    ` vs the first partial page ${figures(firstMs)}: ${ratio.toFixed(2)}x (target <= 1.5x: ${verdict(ratio <= 1.5)})`
  );
};
