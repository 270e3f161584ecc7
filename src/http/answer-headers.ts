// The headers an answer carries beyond its own: those of its path (no-store, a deprecated
// operation's, CORS's, nosniff, the key's rate-limit policy) and those of its request (its id,
// the key's expiry, its D1 bookmark). The middlewares declare them on the way in, cheaply, as
// JavaScript values; they reach the answer in one of two ways, with the same result:
// - an answer written here (`writeAnswer`: every pets answer, every error, every MCP reply)
//   is born with them: one native copy of a Headers built once per combination of parts,
//   then the request's own few. Each Headers.set is a call into the runtime, dear beside the
//   rest of a cached read's work.
// - any other answer (a preflight, the document, Hono's own) gets them one by one on the way
//   out (`finishAnswer`, from the outermost middleware), so that none goes without.
// Hono's c.header() works as it does on c.json's answers, whichever way the answer is made:
// before the answer, it declares a header of the request's own (`honourHeaderCalls`).

import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { applyPart, type Combination, type HeaderPart, NO_PARTS } from "./header-parts";

declare module "hono" {
  interface ContextVariableMap {
    /** The headers declared for the request's answer so far. */
    answerHeaders: DeclaredHeaders;
  }
}

/** A request's own header: its value, or where to read it once the answer is written (none: no header). */
type OwnValue = string | (() => string | null | undefined);
/** A request's own header as c.header() gives it: its value, appended or set; undefined deletes it. */
type OwnHeader = [name: string, value: OwnValue | undefined, append?: boolean];

type DeclaredHeaders = {
  declared: Combination;
  /** The request's own (its id, its key's expiry, its D1 bookmark), set after the parts. */
  own: OwnHeader[];
  /** The answer that writeAnswer wrote with them, if it did. */
  written?: Response;
};

const declaredFor = (c: Context<AppEnv>): DeclaredHeaders => {
  let headers = c.get("answerHeaders");
  if (!headers) {
    headers = { declared: NO_PARTS, own: [] };
    c.set("answerHeaders", headers);
  }
  return headers;
};

/** Declares `part` for the request's answer, whoever writes it. */
export const declareHeaders = (c: Context<AppEnv>, part: HeaderPart) => {
  const headers = declaredFor(c);
  headers.declared = headers.declared.with(part);
};

/** Declares a header of this request alone for its answer, whoever writes it. */
export const declareOwnHeader = (c: Context<AppEnv>, name: string, value: OwnValue) => {
  declaredFor(c).own.push([name, value]);
};

const setOwn = (headers: Headers, own: DeclaredHeaders["own"]) => {
  for (const [name, value, append] of own) {
    if (value === undefined) {
      headers.delete(name);
      continue;
    }
    const written = typeof value === "string" ? value : value();
    if (written) append ? headers.append(name, written) : headers.set(name, written);
  }
};

type HeaderCall = (name: string, value?: string, options?: { append?: boolean }) => void;

/**
 * Makes the request's c.header() declare: called before its answer is written, a header is
 * the request's own (set, appended, or deleted with no value), on the answer whoever writes
 * it; once the answer is written, it changes that answer, as Hono's does. From the outermost
 * middleware, once per request.
 */
export const honourHeaderCalls = (c: Context<AppEnv>) => {
  const honoHeader = c.header as HeaderCall;
  const header: HeaderCall = (name, value, options) => {
    const declared = declaredFor(c);
    const { written } = declared;
    // An answer written here has headers of its own to change: Hono's would copy it, and the
    // copy, not being the one written here, would be given the declared headers once more.
    if (written && (!c.finalized || c.res === written)) setOwn(written.headers, [[name, value, options?.append]]);
    else if (c.finalized) honoHeader(name, value, options);
    else declared.own.push([name, value, options?.append]);
  };
  c.header = header as typeof c.header;
};

/** A middleware that declares `part` on every request it sees. */
export const withHeaders = (part: HeaderPart) =>
  createMiddleware<AppEnv>((c, next) => {
    declareHeaders(c, part);
    return next();
  });

/**
 * An answer, born with the request's declared headers and `part` (its kind's, such as its
 * Content-Type) in one native copy, then the request's own and the answer's own `headers`:
 * one of them wins over a part's header of its name, or is added to it where the part appends.
 * A header set before with c.header() is among the request's own (`honourHeaderCalls`).
 */
export const writeAnswer = (
  c: Context<AppEnv>,
  body: string | null,
  status: number,
  part: HeaderPart,
  headers?: Record<string, string>,
) => {
  const declared = declaredFor(c);
  const combination = declared.declared.with(part);
  const answer = new Response(body, { status, headers: combination.headers });
  const answerHeaders = answer.headers;
  setOwn(answerHeaders, declared.own);
  for (const name in headers) {
    const value = headers[name] as string;
    if (combination.appendedNames.has(name.toLowerCase())) answerHeaders.append(name, value);
    else answerHeaders.set(name, value);
  }
  declared.written = answer;
  return answer;
};

/**
 * The declared headers, on the way out, on an answer that writeAnswer did not write, as it
 * would have: its own headers win over a part's of their name, or are added to where the
 * part appends, and the request's own are set.
 */
export const finishAnswer = (c: Context<AppEnv>) => {
  const declared = declaredFor(c);
  const answer = c.res;
  if (answer === declared.written) return;
  const headers = answer.headers;
  for (const part of declared.declared.parts) applyPart(headers, part);
  setOwn(headers, declared.own);
};
