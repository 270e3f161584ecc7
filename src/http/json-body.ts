import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { readBounded } from "../lib/bounded-body";
import { excerpt } from "../lib/display-text";
import { describeJsonProblem, findJsonProblem } from "../lib/json-ambiguity";
import { ApiError } from "./errors";

// The rules for a JSON request body, checked in the order a client can fix them:
// how it is sent (415), how big it is (413: src/lib/bounded-body.ts reads an oversized body
// to its end first), then its bytes and syntax (400).

export const MAX_BODY_BYTES = 64 * 1024;
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]*)"?/gi;

const unsupported = (message: string) => new ApiError("unsupported_media_type", message);
const invalid = (message: string) => new ApiError("invalid_request", message);
/** The body as its problems name it. */
const BODY = { text: "The request body", member: "Body field" };
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

// A leading byte order mark is dropped, as RFC 8259 allows a parser to.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The request's body as text: sent as UTF-8 JSON and at most MAX_BODY_BYTES, else refused (415, 413, 400). */
export const readJsonText = async (c: Context<AppEnv>): Promise<string> => {
  checkHowItIsSent(c.req.header("Content-Type"), c.req.header("Content-Encoding"));
  const bytes = await readBounded(c.req.raw, MAX_BODY_BYTES);
  if (!bytes) throw tooLarge();
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalid("The request body is not valid UTF-8.");
  }
};

declare module "hono" {
  interface ContextVariableMap {
    /** The request body's JSON value, parsed once, for its schema's check (validate("json") in ./validate.ts). */
    jsonBody: unknown;
  }
}

/** Reads, parses and checks a JSON request body, once, and keeps its value for the body's schema. */
export const jsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const text = await readJsonText(c);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid("The request body is not valid JSON.");
  }
  const problem = findJsonProblem(text, value);
  if (problem !== undefined) throw invalid(describeJsonProblem(problem, BODY));
  c.set("jsonBody", value);
  await next();
});
