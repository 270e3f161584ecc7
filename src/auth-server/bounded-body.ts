// A request body read whole only when it is small: the sign-in Worker reads some bodies
// before the library does (./strangers.ts, ./token-request.ts), and reads no further
// than it must into one that is not.

/** The body of `request` when it is at most `max` bytes, else undefined (read no further). */
export const boundedBody = async (request: Request, max: number): Promise<Uint8Array | undefined> => {
  if (Number(request.headers.get("Content-Length") ?? 0) > max) return undefined;
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = request.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    length += read.value.byteLength;
    if (length > max) {
      await reader?.cancel();
      return undefined;
    }
    chunks.push(read.value);
  }
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
};
