import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError, excerpt } from "./errors";
import { fieldOf, findJsonProblem, type JsonProblem, MAX_JSON_DEPTH } from "./json-ambiguity";

// The rules for a JSON request body, checked in the order a client can fix them:
// how it is sent (415), how big it is (413), then its bytes and syntax (400).

export const MAX_BODY_BYTES = 64 * 1024;
/**
 * An oversized body is still read to its end, and thrown away, before the 413 is sent:
 * a server that answers while the client is still sending makes HTTP/1.1 clients and
 * proxies (wrangler dev's among them) see a reset or a 503 instead of the answer.
 * Cloudflare refuses bodies over 100 MB (Free and Pro plans) before the Worker runs,
 * so in practice every body that reaches it is read; past this, reading stops.
 */
const MAX_DISCARDED_BYTES = 100 * 1024 * 1024;

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]*)"?/gi;

const unsupported = (message: string) => new ApiError("unsupported_media_type", message);
const invalid = (message: string) => new ApiError("invalid_request", message);
const tooLarge = () => new ApiError("payload_too_large", `The request body must not exceed ${MAX_BODY_BYTES} bytes.`);

/** RFC 8259, section 8.1: JSON exchanged between systems is UTF-8. */
const checkHowItIsSent = (contentType: string | undefined, contentEncoding: string | undefined) => {
  // What nearly every client sends, settled without the parsing below.
  if (contentType === "application/json" && contentEncoding === undefined) return;
  const mediaType = contentType?.split(";")[0]?.trim() ?? "";
  if (!JSON_MEDIA_TYPE.test(mediaType)) throw unsupported("The request body must be sent as application/json.");
  const charsets = [...(contentType ?? "").matchAll(CHARSET_PARAMETER)].map((match) => match[1] ?? "");
  // RFC 9110, section 5.6.6: a parameter appears once; a reader might take either value.
  if (charsets.length > 1) throw unsupported("The Content-Type must name its charset once.");
  const [charset] = charsets;
  if (charset !== undefined && charset.toLowerCase() !== "utf-8") {
    throw unsupported(`The request body must be UTF-8 JSON, not charset '${excerpt(charset)}'.`);
  }
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== "identity") {
    throw unsupported(`Content-Encoding '${excerpt(contentEncoding)}' is not accepted: send the body uncompressed.`);
  }
};

const discard = async (reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number) => {
  let read = alreadyRead;
  while (read <= MAX_DISCARDED_BYTES) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.byteLength;
  }
  await reader.cancel();
};

/** The whole body, if it is at most MAX_BODY_BYTES, whether it came with a Content-Length or chunked. */
const readBounded = async (request: Request): Promise<Uint8Array> => {
  const { body } = request;
  if (!body) return new Uint8Array();
  // A body whose stated length is within the bound is read in one call, rather than chunk by
  // chunk through a reader (several times dearer); HTTP's framing holds it to that length,
  // and what was read is measured all the same.
  const length = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (Number.isSafeInteger(length) && length <= MAX_BODY_BYTES) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
    return bytes;
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await discard(reader, size);
      throw tooLarge();
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

// A leading byte order mark is dropped, as RFC 8259 allows a parser to.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** A problem of the body's JSON (src/http/json-ambiguity.ts), worded for the client. */
const bodyProblem = (problem: JsonProblem): string => {
  const field = fieldOf(problem.path);
  if (problem.kind === "repeated") return `The request body repeats the member '${excerpt(field ?? "")}'.`;
  if (problem.kind === "deep") return `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`;
  const where = field === undefined ? "The request body" : `Body field '${excerpt(field)}'`;
  return `${where} holds ${excerpt(problem.token)}, which is not an integer but would be read as one: send it without a fractional part.`;
};

/** The request's body as text: sent as UTF-8 JSON and at most MAX_BODY_BYTES, else refused (415, 413, 400). */
export const readJsonText = async (c: Context<AppEnv>): Promise<string> => {
  checkHowItIsSent(c.req.header("Content-Type"), c.req.header("Content-Encoding"));
  const bytes = await readBounded(c.req.raw);
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalid("The request body is not valid UTF-8.");
  }
};

/**
 * Reads and checks a JSON request body, then leaves its text where Hono's JSON
 * validator reads it (`c.req.bodyCache.text`), so the body is read once.
 */
export const jsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const text = await readJsonText(c);
  try {
    JSON.parse(text);
  } catch {
    throw invalid("The request body is not valid JSON.");
  }
  const problem = findJsonProblem(text);
  if (problem !== undefined) throw invalid(bodyProblem(problem));
  // Hono keeps the promise of each body form here (its type says the value).
  (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
  await next();
});
