// Headers that many answers carry alike (no-store, a deprecated operation's, CORS's, nosniff,
// the key's rate-limit policy), as parts made once, and the combinations of parts a request
// declares, each with the one Headers it makes, built once: an answer is born with a copy of
// it (./answer-headers.ts), rather than given each header by a call into the runtime.

/** Headers that many answers carry alike, made once: `set` ones, and `appended` ones (list headers such as Vary). */
export type HeaderPart = {
  readonly id: string;
  readonly set: readonly (readonly [string, string])[];
  readonly appended: readonly (readonly [string, string])[];
};

// Parts are interned: one object per content, whoever asks for it, so that a combination of
// parts is known by the parts themselves. They are made from the code and the settings, and
// a CORS part from an origin the settings allow, so there are few of them, and few combinations.
const interned = new Map<string, HeaderPart>();

/** A part of these headers, made once per content: at start-up, or once per setting. */
export const headerPart = (set: Record<string, string>, appended: Record<string, string> = {}): HeaderPart => {
  const [setEntries, appendedEntries] = [Object.entries(set), Object.entries(appended)];
  const id = JSON.stringify([setEntries, appendedEntries]);
  let part = interned.get(id);
  if (!part) {
    part = { id, set: setEntries, appended: appendedEntries };
    interned.set(id, part);
  }
  return part;
};

/** Puts `part` on `headers`; a header of a set name that is there already is the answer's own, and stays. */
export const applyPart = (headers: Headers, { set, appended }: HeaderPart) => {
  for (const [name, value] of set) if (!headers.has(name)) headers.set(name, value);
  for (const [name, value] of appended) headers.append(name, value);
};

/**
 * Parts in the order they were declared, and the Headers they make, built on first use: the
 * same for every request that declares the same parts, and reached from the one before it
 * by a lookup per part, with no key to compute.
 */
export class Combination {
  readonly #longer = new Map<HeaderPart, Combination>();
  #headers: Headers | undefined;
  /** The names the parts append to (lower case): an answer's own header of one is added to, not replaced. */
  readonly appendedNames: ReadonlySet<string>;

  constructor(readonly parts: readonly HeaderPart[]) {
    this.appendedNames = new Set(parts.flatMap(({ appended }) => appended.map(([name]) => name.toLowerCase())));
  }

  /** These parts and `part` after them. */
  with(part: HeaderPart): Combination {
    let longer = this.#longer.get(part);
    if (!longer) {
      longer = new Combination([...this.parts, part]);
      this.#longer.set(part, longer);
    }
    return longer;
  }

  get headers(): Headers {
    if (!this.#headers) {
      const headers = new Headers();
      for (const part of this.parts) applyPart(headers, part);
      this.#headers = headers;
    }
    return this.#headers;
  }
}

export const NO_PARTS = new Combination([]);
