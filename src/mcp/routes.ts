// POST /mcp: the Model Context Protocol over Streamable HTTP, on the API's own host, for
// agents (docs/mcp.md). The same key as the API's, in Authorization: a missing, unknown or
// expired one is 401 before any message is read. An Origin that ALLOWED_ORIGINS does not
// name is 403 (the specification's guard against DNS rebinding); an MCP-Protocol-Version
// this server does not speak is 400. It answers in JSON and offers no stream: GET is 405.
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { allowOrigin } from "../http/cors";
import { ApiError, excerpt } from "../http/errors";
import { readJsonText } from "../http/json-body";
import { isWithinLimit, rateLimited } from "../http/rate-limit";
import { requireApiKey } from "../keys/authenticate";
import { type ApiFetch, callTool } from "./call";
import { answer, PARSE_ERROR, PROTOCOL_VERSIONS, rpcError } from "./protocol";
import { isToolName, TOOLS, type ToolName } from "./tools";

declare module "hono" {
  interface ContextVariableMap {
    /** The tool a /mcp request called, for its access line. */
    mcpTool: ToolName;
  }
}

// A page may reach /mcp only from an origin ALLOWED_ORIGINS names: "*", which opens the API's
// answers to every page, does not open this endpoint, whose guard the specification requires.
const checkOrigin = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header("Origin");
  if (origin !== undefined && allowOrigin(origin, c) !== origin) {
    throw new ApiError("forbidden", `The Origin '${excerpt(origin)}' may not call this endpoint.`);
  }
  await next();
});

const checkProtocolVersion = createMiddleware<AppEnv>(async (c, next) => {
  const version = c.req.header("MCP-Protocol-Version");
  if (version !== undefined && !PROTOCOL_VERSIONS.includes(version)) {
    const spoken = PROTOCOL_VERSIONS.join(", ");
    throw new ApiError(
      "invalid_request",
      `MCP-Protocol-Version '${excerpt(version)}' is not one this server speaks: ${spoken}.`,
    );
  }
  await next();
});

export const mcpRoutes = (fetchApi: ApiFetch) =>
  new Hono<AppEnv>().post("/", checkOrigin, checkProtocolVersion, requireApiKey, async (c) => {
    // At most the API's body limit, as UTF-8 JSON (413, 415 and 400 otherwise, as for a pet).
    const text = await readJsonText(c);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return c.json(rpcError(null, PARSE_ERROR, "The body is not JSON."), 400);
    }
    if (Array.isArray(message)) {
      return c.json(rpcError(null, -32600, "Batches are not accepted: send one message per request."), 400);
    }
    // Each request counts once against the key's limit: a call of a known tool as the
    // operation it runs (./call.ts), anything else here.
    const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown } };
    const runsATool = method === "tools/call" && isToolName(params?.name);
    if (!runsATool && !(await isWithinLimit(c, "RATE_LIMITER", c.get("apiKey").hash))) throw rateLimited();
    const reply = await answer(message, {
      listTools: () => ({ tools: TOOLS }),
      callTool: (name, args) => {
        if (!isToolName(name)) return undefined;
        c.set("mcpTool", name);
        return callTool(c, fetchApi, name, args);
      },
    });
    return reply ? c.json(reply) : c.body(null, 202);
  });
