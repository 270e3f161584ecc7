// A tool call, run as the HTTP operation it stands for, through the whole app, as the caller
// admitted at /mcp's door: the same scope, validation, idempotency, deprecation and brownouts. Its arguments are
// checked first (./arguments.ts), and its request is built from the checked values alone.
// The /mcp request was counted against the key's limit at the door (./routes.ts), so the
// operation does not count it again; the access line is the /mcp request's, which names
// the tool and carries the operation's status and error code, so the inner request writes none.
import type { Context } from "hono";
import type { AppEnv } from "../env";
import type { ErrorCode } from "../http/error-codes";
import type { ApiError } from "../http/errors";
import { COUNTED_ALREADY } from "../http/rate-limit";
import type { AdmittedAtTheDoor } from "../keys/authenticate";
import type { ErrorBody } from "../schemas";
import { checkArguments, type ToolArguments } from "./arguments";
import { GET_PET_DEPRECATION, type ToolName } from "./tools";

declare module "hono" {
  interface ContextVariableMap {
    /** The tool a /mcp request called, for its access line. */
    mcpTool: ToolName;
    /** The HTTP status its operation answered (or that its refused arguments stand for), for the access line. */
    mcpToolStatus: number;
  }
}

/** The app itself, as src/app.ts hands it over: mcp/ does not import it, which would tie a circle. */
export type ApiFetch = (
  request: Request,
  env: CloudflareBindings,
  context: Context<AppEnv>["executionCtx"],
) => Response | Promise<Response>;

/** The operation's request for checked arguments: every value in it is one its schema allowed. */
const requestFor = <Name extends ToolName>(name: Name, args: ToolArguments[Name], origin: string) => {
  const headers = new Headers();
  if (name === "create_pet") {
    const { idempotencyKey, ...pet } = args as ToolArguments["create_pet"];
    headers.set("Content-Type", "application/json");
    if (idempotencyKey !== undefined) headers.set("Idempotency-Key", idempotencyKey);
    return new Request(`${origin}/v1/pets`, { method: "POST", headers, body: JSON.stringify(pet) });
  }
  if (name === "get_pet")
    return new Request(`${origin}/v1/pets/${(args as ToolArguments["get_pet"]).petId}`, { headers });
  const { limit, status, cursor } = args as ToolArguments["list_pets"];
  const query = new URLSearchParams();
  if (limit !== undefined) query.set("limit", String(limit));
  if (status !== undefined) query.set("status", status);
  if (cursor !== undefined) query.set("cursor", cursor);
  return new Request(`${origin}/v1/pets${query.size > 0 ? `?${query}` : ""}`, { headers });
};

/** The cursor of the answer's next link, if it has one. */
const nextCursor = (response: Response) => {
  const target = /^<([^>]*)>/.exec(response.headers.get("Link") ?? "")?.[1];
  return target ? (new URLSearchParams(target.slice(target.indexOf("?") + 1)).get("cursor") ?? undefined) : undefined;
};

/** What every get_pet result says of its end: a text line, and _meta.deprecation. */
const deprecationOf = (name: ToolName) =>
  name === "get_pet"
    ? {
        notice: [
          {
            type: "text",
            text: `get_pet is deprecated: removed on ${GET_PET_DEPRECATION.sunset}; use ${GET_PET_DEPRECATION.replacedBy}.`,
          },
        ],
        meta: { _meta: { deprecation: GET_PET_DEPRECATION } },
      }
    : { notice: [], meta: {} };

/** An error as the tool's result: isError with the Error body (and retryAfter, in seconds, where one was given). */
const errorResult = (c: Context<AppEnv>, name: ToolName, body: ErrorBody, retryAfter?: number) => {
  c.set("mcpTool", name);
  c.set("mcpToolStatus", body.status);
  c.set("errorCode", body.code as ErrorCode);
  const { notice, meta } = deprecationOf(name);
  const error = { ...body, ...(retryAfter !== undefined && { retryAfter }) };
  return { content: [{ type: "text", text: JSON.stringify(error) }, ...notice], isError: true, ...meta };
};

/** An ApiError of this door (refused arguments, the key's limit) as the tool's result. */
export const refusedCall = (c: Context<AppEnv>, name: ToolName, error: ApiError) => {
  const retryAfter = Number(error.headers["Retry-After"] ?? Number.NaN);
  const body = { code: error.code, message: error.message, status: error.status };
  return errorResult(c, name, body, Number.isInteger(retryAfter) ? retryAfter : undefined);
};

/**
 * The tool's result: its value as structuredContent with a text rendering; or, for an error
 * of the API, isError with the Error body, for the agent to act on. get_pet's results all
 * say when it ends and what replaces it.
 */
export const callTool = async (c: Context<AppEnv>, fetchApi: ApiFetch, name: ToolName, args: unknown) => {
  const checked = checkArguments(name, args);
  if (checked instanceof Error) return refusedCall(c, name, checked);
  const request = requestFor(name, checked, new URL(c.req.url).origin);
  // ACCESS_LOG off: this request's line is the /mcp request's own. The caller is the one
  // admitted at the door, key or access token, not admitted again.
  const admitted: AdmittedAtTheDoor = { ADMITTED_CALLER: c.get("apiKey") };
  const env = { ...c.env, ...admitted, ACCESS_LOG: "off", RATE_LIMITER: COUNTED_ALREADY };
  const response = await fetchApi(request, env, c.executionCtx);
  const body: unknown = await response.json();
  if (!response.ok) {
    const retryAfter = Number(response.headers.get("Retry-After") ?? Number.NaN);
    return errorResult(c, name, body as ErrorBody, Number.isInteger(retryAfter) ? retryAfter : undefined);
  }
  c.set("mcpTool", name);
  c.set("mcpToolStatus", response.status);
  const cursor = name === "list_pets" ? nextCursor(response) : undefined;
  const value = name === "list_pets" ? { pets: body, ...(cursor && { nextCursor: cursor }) } : body;
  const { notice, meta } = deprecationOf(name);
  return { content: [{ type: "text", text: JSON.stringify(value) }, ...notice], structuredContent: value, ...meta };
};
