// The Link header (RFC 8288), as the client reads it: the next page, and what replaces a deprecated operation.

/**
 * The link-values of a Link header (RFC 8288), read in one pass: each target, and its
 * parameters by lowercase name. A comma ends a link-value only outside its <target> and
 * outside a quoted string, whose backslash escapes the character after it. `complete` is
 * false when the header could not be read to its end.
 */
const linkValues = (link: string) => {
  const values: { target: string; params: Map<string, string> }[] = [];
  let at = 0;
  const skipSpace = () => {
    while (link[at] === " " || link[at] === "\t") at++;
  };
  /** A token up to one of `stops` (or the end), trimmed. */
  const token = (stops: string) => {
    const from = at;
    while (at < link.length && !stops.includes(link[at] as string)) at++;
    return link.slice(from, at).trim();
  };
  /** A quoted string, `at` on its opening quote; undefined when it is not closed. */
  const quoted = () => {
    let text = "";
    for (at++; at < link.length; at++) {
      const char = link[at] as string;
      if (char === '"') {
        at++;
        return text;
      }
      if (char === "\\") at++;
      text += link[at] ?? "";
    }
    return undefined;
  };
  for (;;) {
    skipSpace();
    if (at >= link.length) return { values, complete: true };
    if (link[at] !== "<") return { values, complete: false };
    const close = link.indexOf(">", at);
    if (close === -1) return { values, complete: false };
    const target = link.slice(at + 1, close);
    at = close + 1;
    const params = new Map<string, string>();
    for (skipSpace(); link[at] === ";"; skipSpace()) {
      at++;
      const name = token("=;,").toLowerCase();
      let value = "";
      if (link[at] === "=") {
        at++;
        skipSpace();
        const read = link[at] === '"' ? quoted() : token(";,");
        if (read === undefined) return { values, complete: false };
        value = read;
      }
      if (name && !params.has(name)) params.set(name, value);
    }
    values.push({ target, params });
    if (at < link.length && link[at] !== ",") return { values, complete: false };
    at++;
  }
};

/**
 * The target of the Link header's link with this relation, resolved against `base`; undefined
 * without one; null when it is not a URL, or the header cannot be read to its end (a link
 * that cannot be read is not taken for no link).
 */
export const linkTarget = (link: string | null, relation: string, base: string): URL | undefined | null => {
  const { values, complete } = linkValues(link ?? "");
  for (const { target, params } of values) {
    const relations = (params.get("rel") ?? "").toLowerCase().split(/\s+/);
    if (relations.includes(relation)) return URL.canParse(target, base) ? new URL(target, base) : null;
  }
  return complete ? undefined : null;
};
