// A request body read whole only when it is at most a bound, for the API's body rules
// (src/http/json-body.ts) and the sign-in Worker's own reads (src/auth-server/). A larger
// one is still read to its end, and thrown away, before the answer: a server that answers
// while the client is still sending makes HTTP/1.1 clients and proxies (wrangler dev's among
// them) see a reset or a 503 instead of the answer.

/**
 * Cloudflare refuses bodies over 100 MB (Free and Pro plans) before the Worker runs, so in
 * practice every body that reaches it is read; past this, reading stops.
 */
const MAX_DISCARDED_BYTES = 100 * 1024 * 1024;

const discard = async (reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number) => {
  let read = alreadyRead;
  while (read <= MAX_DISCARDED_BYTES) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.byteLength;
  }
  await reader.cancel();
};

/** Reads what is left of the body, if anything, to its end and throws it away, before an answer that did not need it. */
export const discardBody = async (request: Request) => {
  if (request.body && !request.bodyUsed) await discard(request.body.getReader(), 0);
};

/** The whole body, if it is at most `max` bytes, whether it came with a Content-Length or chunked; undefined if larger. */
export const readBounded = async (request: Request, max: number): Promise<Uint8Array | undefined> => {
  const { body } = request;
  if (!body) return new Uint8Array();
  // A body whose stated length is within the bound is read in one call, rather than chunk by
  // chunk through a reader (several times dearer); HTTP's framing holds it to that length,
  // and what was read is measured all the same.
  const length = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (Number.isSafeInteger(length) && length <= max) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > max ? undefined : bytes;
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await discard(reader, size);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
};
