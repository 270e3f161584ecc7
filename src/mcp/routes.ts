// POST /mcp: the Model Context Protocol over Streamable HTTP, on the API's own host, for
// agents (docs/mcp.md). The same key as the API's, or an access token signed in with one
// (./key-or-token-auth.ts), in Authorization: a missing, unknown or expired one is 401 before any message is read. An Origin that may not call it is 403 (the
// specification's guard against DNS rebinding); a version this server does not speak, or
// headers that disagree with the body, are 400 (./versions.ts). It answers in JSON and offers
// no stream: GET is 405.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { writeAnswer } from "../http/answer-headers";
import { beginCall } from "../http/begin-call";
import { allowOrigin, corsFor } from "../http/cors";
import { ApiError } from "../http/errors";
import { JSON_CONTENT } from "../http/json-answer";
import { readJsonText } from "../http/json-body";
import { rateLimited } from "../http/rate-limit";
import { newApp } from "../http/router";
import { excerpt } from "../lib/display-text";
import { describeJsonProblem, findJsonProblem } from "../lib/json-ambiguity";
import { callTool, refusedCall } from "./call";
import { INVALID_REQUEST, isObject, PARSE_ERROR, type Reply, readableId, rpcError } from "./json-rpc";
import { requireKeyOrToken } from "./key-or-token-auth";
import { answer } from "./protocol";
import { replyText } from "./reply-text";
import { argumentsProblem } from "./tool";
import { isToolName, toolNamed, tools } from "./tools";
import { eraOf } from "./versions";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether a page of this Origin may call /mcp: one ALLOWED_ORIGINS names ("*", which opens
 * the API's answers to every page, names none here), or the server's own origin when it is
 * a loopback address, as `npm run dev`'s is. A rebinding page's origin is its own name, which
 * the Host it sends repeats: only a loopback name is trusted as the server's own.
 */
export const mayCallMcp = (origin: string, c: Parameters<typeof allowOrigin>[1]) => {
  const own = new URL(c.req.url);
  return allowOrigin(origin, c) === origin || (origin === own.origin && LOOPBACK_HOSTS.has(own.hostname));
};

/**
 * CORS for /mcp, agreeing with its Origin guard below: a page of an origin that may call it
 * gets the headers, and its preflight the methods and request headers an MCP client sends;
 * any other origin gets none, and its request the 403.
 */
export const mcpCors = corsFor({
  origin: (origin, c) => (origin && mayCallMcp(origin, c) ? origin : null),
  varyOrigin: true,
  allowMethods: () => ["POST"],
  allowHeaders: [
    "Authorization",
    "Content-Type",
    "MCP-Protocol-Version",
    "Mcp-Method",
    "Mcp-Name",
    "x-d1-bookmark",
    "X-Request-Id",
  ],
  exposeHeaders: [
    "X-Request-Id",
    "Retry-After",
    "WWW-Authenticate",
    "x-d1-bookmark",
    "RateLimit-Policy",
    "Api-Key-Expiration",
  ],
});

const checkOrigin = createMiddleware<AppEnv>((c, next) => {
  const origin = c.req.header("Origin");
  if (origin !== undefined && !mayCallMcp(origin, c)) {
    throw new ApiError("forbidden", `The Origin '${excerpt(origin)}' may not call this endpoint.`);
  }
  return next();
});

/** A tools/call request of one of the tools (with an id: a notification runs nothing). */
const toolCalled = (message: unknown) => {
  if (!isObject(message) || message.method !== "tools/call" || readableId(message) === undefined) return undefined;
  const name = isObject(message.params) ? message.params.name : undefined;
  return isToolName(name) ? toolNamed(name) : undefined;
};

const listTools = () => ({ tools: tools() });

export const mcpRoutes = newApp().post(
  "/",
  checkOrigin,
  requireKeyOrToken,
  // Counted once, whatever the request holds, with one D1 session for a tool's operation.
  beginCall,
  async (c) => {
    const reply = (body: Reply | undefined, status: 200 | 400 | 404) =>
      body ? writeAnswer(c, replyText(body, c.get("structuredText")), status, JSON_CONTENT) : c.body(null, 202);
    const withinLimit = c.get("withinLimit");
    // At most the API's body limit, as UTF-8 JSON (413, 415 and 400 otherwise, as for a pet).
    const text = await readJsonText(c);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      if (!withinLimit) throw rateLimited();
      return reply(rpcError(undefined, PARSE_ERROR, "The body is not JSON."), 400);
    }
    const tool = toolCalled(message);
    const era = eraOf(message, (name) => c.req.header(name));
    if (!withinLimit) {
      // A tool call's 429 is its result, for the agent to act on; anything else gets the HTTP 429.
      if (!tool || "refusal" in era) throw rateLimited();
      const limited = await answer(message, era, {
        listTools,
        callTool: () => Promise.resolve(refusedCall(c, tool, rateLimited())),
      });
      return reply(limited.reply, limited.status);
    }
    // The pet body's JSON rules (repeated members, numbers that are not what they say,
    // nesting): in a tool's arguments, a tool error; anywhere else, the message is invalid.
    const problem = findJsonProblem(text, message);
    const inArguments = tool !== undefined && problem?.path[0] === "params" && problem.path[1] === "arguments";
    if (problem && !inArguments) {
      const words = describeJsonProblem(problem, { text: "The message", member: "Member" });
      return reply(rpcError(readableId(message), INVALID_REQUEST, words), 400);
    }
    if ("refusal" in era) return reply(era.refusal, 400);
    const answered = await answer(message, era, {
      listTools,
      callTool: (name, args) => {
        if (!isToolName(name)) return undefined;
        return callTool(c, toolNamed(name), args, problem && argumentsProblem(problem));
      },
    });
    return reply(answered.reply, answered.status);
  },
);
