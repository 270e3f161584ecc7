// A request body read whole only when it is small: the sign-in Worker reads some bodies
// before the library does (./strangers.ts, ./token-request.ts). One that is too large is
// read to its end and thrown away, as the API does with its own (src/http/json-body.ts): an
// answer sent while the client still sends makes clients and proxies see a reset instead.

/** The body of `request` when it is at most `max` bytes, else undefined (the rest read and dropped). */
export const boundedBody = async (request: Request, max: number): Promise<Uint8Array | undefined> => {
  const chunks: Uint8Array[] = [];
  let length = Number(request.headers.get("Content-Length") ?? 0) > max ? max + 1 : 0;
  const reader = request.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    length += read.value.byteLength;
    if (length <= max) chunks.push(read.value);
  }
  if (length > max) return undefined;
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
};
