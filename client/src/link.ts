// The Link header (RFC 8288), as the client reads it: the next page, and what replaces a deprecated operation.

/**
 * One token of a Link header (RFC 8288), after any blanks: a <target>; a parameter, whose
 * value is a token or a quoted string (a backslash escapes the character after it), so a
 * comma inside quotes or a target is no separator; a comma, which ends a link-value; or the end.
 */
const TOKEN = /[\t ]*(?:<([^>]*)>|;[\t ]*([^\t =;,"]+)[\t ]*(?:=[\t ]*(?:"((?:[^"\\]|\\.)*)"|([^;,"]*)))?|,|$)/y;

/** The link-values of a Link header: each target, and its parameters by lowercase name; `complete` is false when the header cannot be read to its end. */
const linkValues = (link: string) => {
  const values: { target: string; params: Map<string, string> }[] = [];
  let current: (typeof values)[number] | undefined;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < link.length) {
    const match = TOKEN.exec(link);
    if (!match?.[0]) return { values, complete: false };
    const [, target, name, quoted, bare] = match;
    if (target !== undefined) {
      current = { target, params: new Map() };
      values.push(current);
    } else if (name === undefined) {
      current = undefined;
    } else if (!current) {
      return { values, complete: false };
    } else if (!current.params.has(name.toLowerCase())) {
      current.params.set(name.toLowerCase(), quoted?.replace(/\\(.)/g, "$1") ?? bare?.trim() ?? "");
    }
  }
  return { values, complete: true };
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
