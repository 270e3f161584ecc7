// For `npm run bench:instructions`: where a dump's instructions went, item by item. A
// callgrind dump gives each function's own count (its "self" cost), with workerd's, V8's
// and the C library's names; the Worker's own JavaScript, compiled by V8 at run time, has
// no name there and counts as one item. The items are groups of those names.

const COMPILED_JS = "JavaScript, compiled at run time";
/** The items, first match wins: a name is counted once. */
const ITEMS: [item: string, names: RegExp][] = [
  ["JavaScript, interpreted", /^Builtins_(\w+Handler|InterpreterEntryTrampoline\w*)$/],
  ["V8's built-ins (promises, property reads, Map, strings)", /^Builtins_/],
  [
    "Garbage collection",
    /Scavenger|MarkCompact|Sweeper|Marking|Evacuat|IsUnmodifiedApiObject|TracedHandles|BodyDescriptor|heap::|cppgc::/,
  ],
  ["V8's compilers", /v8::internal::(compiler|maglev|baseline)::|turboshaft/],
  ["JSON", /Json|JSON/],
  ["HTTP headers", /Header|kj_hyper|<http::|hyper::/],
  ["SQLite (D1, the limiter's Durable Object)", /^(sqlite3|walIndex|btree|pager|vdbe|jsonb?[A-Z])/],
  ["Memory: allocation and copies", /tcmalloc|^operator (new|delete)|^__mem|^mem(cpy|set|move)/],
  [
    "V8's API and runtime (objects, strings, handles)",
    /^(v8::|std::__1::optional<v8|unsigned int v8::|bool v8::|void v8::)/,
  ],
  ["workerd and kj (I/O, the bindings, the request)", /workerd|kj::|kj_|capnp|<kj|tokio/],
];
export const OTHER = "other (the C library, the kernel's interface, the rest)";
export const ITEM_NAMES = [COMPILED_JS, ...ITEMS.map(([item]) => item), OTHER];

/** A function's item, by its name and its object: code V8 compiled has neither. */
export const itemOf = (name: string, object: string) =>
  object === "???" && /^0x[0-9a-f]+$/.test(name)
    ? COMPILED_JS
    : (ITEMS.find(([, names]) => names.test(name))?.[0] ?? OTHER);

/**
 * Each item's instructions in a dump, from its functions' self cost: the lines after `fn=`
 * up to the next, except the one after each `calls=`, which is the callee's inclusive cost.
 * Names (of functions, `fn=`, and objects, `ob=`) are compressed: `fn=(12) name` the first
 * time, `fn=(12)` after, in either the line of the function or of a call to it.
 */
export const itemsOfDump = (text: string): Map<string, number> => {
  const items = new Map<string, number>();
  const compressed = { fn: new Map<string, string>(), ob: new Map<string, string>() };
  const nameOf = (kind: keyof typeof compressed, field: string) => {
    const [, id, name] = /^\((\d+)\)(?: (.*))?$/.exec(field.trim()) ?? [];
    if (id === undefined) return field.trim();
    if (name !== undefined) compressed[kind].set(id, name);
    return compressed[kind].get(id) ?? "";
  };
  let [object, item] = ["", OTHER];
  let callLine = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("ob=")) object = nameOf("ob", line.slice(3));
    else if (line.startsWith("fn=")) item = itemOf(nameOf("fn", line.slice(3)), object);
    else if (line.startsWith("cfn=") || line.startsWith("cob=")) nameOf(line[1] === "f" ? "fn" : "ob", line.slice(4));
    else if (line.startsWith("calls=")) callLine = true;
    else {
      const cost = /^(?:[+-]?\d+|\*)\s+(\d+)$/.exec(line)?.[1];
      if (cost === undefined) continue;
      if (callLine) callLine = false;
      else items.set(item, (items.get(item) ?? 0) + Number(cost));
    }
  }
  return items;
};
