// Pets live in segments: D1 databases that each own a fixed range of ids, so that no
// database's 10 GB stops a create (docs/architecture.md, "Segments"). PET_SEGMENTS names
// their bindings in the order of their ranges; the first is DB, which also holds what is
// not a pet (usage counts, last-used days). Ids only grow: one segment, the open one, takes
// every create, and those before it are closed, full and never written again.

/** The ids each segment owns: 2^40, so that 8,192 segments fill the 2^53 of exact integers. */
const SEGMENT_SPAN = 2 ** 40;
/** No segment past this one: its range ends at Number.MAX_SAFE_INTEGER. */
export const MAX_SEGMENTS = 2 ** 53 / SEGMENT_SPAN;

/** The segment that owns `id`. */
export const segmentOf = (id: number) => Math.floor(id / SEGMENT_SPAN);
/** The first id of segment `position` (ids start at 1). */
export const firstIdOf = (position: number) => Math.max(1, position * SEGMENT_SPAN);
/** The last id of segment `position`. */
export const lastIdOf = (position: number) => (position + 1) * SEGMENT_SPAN - 1;

/** The settings that name the segments: PET_SEGMENTS, and the bindings it names. */
export type SegmentsEnv = { DB: D1Database; PET_SEGMENTS?: string };

/** A deployment's segments: PET_SEGMENTS as read, and their databases in the order of their ranges. */
export type SegmentLayout = { readonly key: string; readonly databases: readonly D1Database[] };

const PET_SEGMENTS_SHAPE = /^DB(?: PETS_[1-9][0-9]{0,3})*$/;

/** The binding of segment `position`: DB first, then PETS_1, PETS_2, ... */
export const segmentBinding = (position: number) => (position === 0 ? "DB" : `PETS_${position}`);

const layouts = new WeakMap<object, SegmentLayout>();

/**
 * The segments PET_SEGMENTS names (DB alone when it is unset), read once per env. A list that
 * is not DB, PETS_1, PETS_2 ... in order, or that names a binding the Worker lacks, is a fault
 * of the deployment, which `npm run check:deploy` refuses before it ships.
 */
export const segmentLayout = (env: SegmentsEnv): SegmentLayout => {
  const known = layouts.get(env);
  if (known) return known;
  const key = env.PET_SEGMENTS?.trim() || "DB";
  const names = key.split(" ");
  if (!PET_SEGMENTS_SHAPE.test(key) || names.some((name, position) => name !== segmentBinding(position))) {
    throw new Error(`PET_SEGMENTS must list DB, PETS_1, PETS_2 ... in order: it is "${key}"`);
  }
  if (names.length > MAX_SEGMENTS)
    throw new Error(`PET_SEGMENTS lists ${names.length} segments, past the ${MAX_SEGMENTS} there are`);
  const databases = names.map((name) => {
    const database = (env as unknown as Record<string, D1Database | undefined>)[name];
    if (!database) throw new Error(`PET_SEGMENTS names ${name}, which is not a D1 binding of this Worker`);
    return database;
  });
  const layout = { key, databases };
  layouts.set(env, layout);
  return layout;
};

/** The message of a closed segment's refusal of a new pet (its trigger, drizzle/0005_closed_segment.sql). */
export const CLOSED_SEGMENT = "pets_segment_closed";
