// A request's sessions on the segments (./segments.ts): one per segment it touches, opened on
// its first query, reported together, and their bookmarks carried in the one x-d1-bookmark
// header, so that a client reads its own writes whichever segment holds them.
import { type SegmentLayout, type SegmentsEnv, segmentLayout } from "./segments";
import { emptyTally, RequestSession } from "./session";

/**
 * The segments whose bookmarks an answer carries: the two newest the client or the request
 * touched. Writes go to the open segment only, and to the one before it while it was open:
 * a segment closed before that has no write a replica could still lack.
 */
const BOOKMARKS_KEPT = 2;

/** The bookmarks of a header that matched BOOKMARK (src/schemas.ts), by segment: `<bookmark>` for segment 0, `s<nnnn>:<bookmark>` for segment n. */
const bookmarksOf = (header: string): Map<number, string> => {
  const bookmarks = new Map<number, string>();
  for (const entry of header.split(",")) {
    if (entry.startsWith("s")) bookmarks.set(Number(entry.slice(1, 5)), entry.slice(6));
    else bookmarks.set(0, entry);
  }
  return bookmarks;
};

/** A segment's entry in the header. */
const entryOf = (position: number, bookmark: string) =>
  position === 0 ? bookmark : `s${String(position).padStart(4, "0")}:${bookmark}`;

export class SegmentSessions {
  readonly #tally = emptyTally();
  readonly #sessions: (RequestSession | undefined)[] = [];
  readonly #sent: Map<number, string> | undefined;

  constructor(
    readonly layout: SegmentLayout,
    bookmarkHeader: string | undefined,
  ) {
    this.#sent = bookmarkHeader === undefined ? undefined : bookmarksOf(bookmarkHeader);
  }

  /** How many segments there are. */
  get count() {
    return this.layout.databases.length;
  }

  /** The request's session on segment `position` (which must be below `count`). */
  segment(position: number): RequestSession {
    let session = this.#sessions[position];
    if (!session) {
      const database = this.layout.databases[position];
      if (!database) throw new Error(`there is no segment ${position}`);
      session = new RequestSession(database, this.#sent?.get(position), this.#tally);
      this.#sessions[position] = session;
    }
    return session;
  }

  /** The retries so far, on every segment, for the request's log line. */
  get retries() {
    return this.#tally.retries;
  }

  /** What D1 reported of the queries so far, on every segment, for the request's log line. */
  get usage() {
    return this.#tally.usage;
  }

  /** The header to send back: each kept segment's latest bookmark, or the one the client sent where no query ran, the newest segment first. */
  get latestBookmark(): string | undefined {
    const entries: string[] = [];
    for (let position = this.count - 1; position >= 0 && entries.length < BOOKMARKS_KEPT; position--) {
      const bookmark = this.#sessions[position]?.latestBookmark ?? this.#sent?.get(position);
      if (bookmark !== undefined) entries.push(entryOf(position, bookmark));
    }
    return entries.length === 0 ? undefined : entries.join(",");
  }
}

/** A request's sessions on the segments of `env`, from the x-d1-bookmark it sent (already checked against BOOKMARK). */
export const openSegmentSessions = (env: SegmentsEnv, bookmarkHeader?: string) =>
  new SegmentSessions(segmentLayout(env), bookmarkHeader);
