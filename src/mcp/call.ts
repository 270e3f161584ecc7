// A tool call: the MCP door of an operation. The caller admitted at /mcp's door, on the count
// and the access line of the /mcp request, calls its tool (./tools.ts), which checks the
// arguments by the same zod rules as the HTTP door's input and runs the operation itself: the
// same scope, idempotency, cursor, deprecation and brownouts as over HTTP, from the same code.
import type { Context } from "hono";
import { scopeRefusal } from "../core/operation";
import { Refusal } from "../core/refusal";
import type { AppEnv } from "../env";
import { toRefusal } from "../http/errors";
import { operationContext } from "../http/operation-context";
import { keptJsonText } from "../lib/json-text";
import { insufficientScope } from "../oauth/protected-resource";
import type { Tool, ToolOutcome } from "./tool";

declare module "hono" {
  interface ContextVariableMap {
    /** The JSON text of the tool result's structuredContent, written once for both its places (./reply-text.ts). */
    structuredText: string;
  }
}

/** The access line of the /mcp request names the tool and carries its operation's status (src/http/request-log.ts). */
const logCall = (c: Context<AppEnv>, tool: Tool, status: number) =>
  c.set("operationOutcome", { status, fields: { tool: tool.name } });

/** What every result of the tool says besides (get_pet's end): a text line, and _meta. */
const noticeOf = ({ notice }: Tool) =>
  notice ? { lines: [{ type: "text", text: notice.text }], meta: notice.meta } : { lines: [], meta: undefined };

/**
 * A refusal as the tool's result: isError with the Error body, for the agent to act on, and
 * retryAfter (in seconds) where the refusal says when to come back.
 */
export const refusedCall = (c: Context<AppEnv>, tool: Tool, refusal: Refusal) => {
  logCall(c, tool, refusal.status);
  c.set("errorCode", refusal.code);
  const { code, message, status, retryAfter } = refusal;
  const body = { code, message, status, ...(retryAfter !== undefined && { retryAfter }) };
  const { lines, meta } = noticeOf(tool);
  return {
    content: [{ type: "text", text: JSON.stringify(body) }, ...lines],
    isError: true,
    ...(meta && { _meta: meta }),
  };
};

/**
 * The tool's result: its operation's value as structuredContent with a text rendering; or,
 * for a refusal (the arguments' JSON, then their rules, then the operation's own), isError
 * with the Error body. A credential without the operation's scope is refused first, whatever
 * the arguments hold, as HTTP 403 with MCP's scope challenge
 * (src/oauth/protected-resource.ts), so that a host can sign in for it. A fault of the
 * operation is answered as the HTTP door answers it, as internal_error.
 */
export const callTool = async (c: Context<AppEnv>, tool: Tool, args: unknown, jsonProblem?: Refusal) => {
  const refused = scopeRefusal(c.get("apiKey"), tool.scope);
  if (refused) {
    logCall(c, tool, refused.status);
    throw await insufficientScope(c, refused);
  }
  if (jsonProblem) return refusedCall(c, tool, jsonProblem);
  let outcome: ToolOutcome;
  try {
    outcome = await tool.call(operationContext(c), args);
  } catch (error) {
    outcome = toRefusal(error instanceof Error ? error : new Error(String(error)), c);
  }
  if (outcome instanceof Refusal) return refusedCall(c, tool, outcome);
  logCall(c, tool, tool.status);
  const { lines, meta } = noticeOf(tool);
  const { result } = outcome;
  // A value from the isolate's memory has its text kept; a fresh one (a created pet) is
  // written here, and not kept: it is gone after this answer.
  const text = keptJsonText(result) ?? JSON.stringify(result);
  c.set("structuredText", text);
  const content = [{ type: "text", text }, ...lines];
  const _meta = meta || outcome.meta ? { ...meta, ...outcome.meta } : undefined;
  return { content, structuredContent: result, ...(_meta && { _meta }) };
};
