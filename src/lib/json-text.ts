// The JSON text of a value that no one changes after it is made, written once and kept as long
// as the value is: a page or a pet from the isolate's cache (src/core/cache.ts) is the same
// object on every answer, and a tool's result goes on the wire twice (src/mcp/reply-text.ts).

const texts = new WeakMap<object, string>();

/** JSON.stringify(value), from its kept text when it has one. The value must not change after. */
export const jsonText = (value: object): string => {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
};

/** Keeps `text` as the value's: it must be JSON.stringify(value), written another way. */
export const keepJsonText = (value: object, text: string) => {
  texts.set(value, text);
};

/** The text that jsonText kept for the value, if it kept one. */
export const keptJsonText = (value: unknown): string | undefined =>
  // WeakMap's get of anything but an object is undefined.
  texts.get(value as object);
