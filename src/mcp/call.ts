// A tool call, run as the HTTP operation it stands for, through the whole app: the same
// key, scope, rate limit, validation, idempotency, deprecation and brownouts. The call
// counts against the key's limit there, once; the access line is the /mcp request's,
// which names the tool, so the inner request writes none.
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { GET_PET_DEPRECATION, type ToolName } from "./tools";

/** The app itself, as src/app.ts hands it over: mcp/ does not import it, which would tie a circle. */
export type ApiFetch = (
  request: Request,
  env: CloudflareBindings,
  context: Context<AppEnv>["executionCtx"],
) => Response | Promise<Response>;

type Arguments = Record<string, unknown>;

/** The operation's request for a tool's arguments; what the operation refuses, it answers as it would over HTTP. */
const requestFor = (name: ToolName, args: Arguments, origin: string, authorization: string) => {
  const headers = new Headers({ Authorization: authorization });
  if (name === "create_pet") {
    const { idempotencyKey, ...pet } = args;
    headers.set("Content-Type", "application/json");
    if (idempotencyKey !== undefined) headers.set("Idempotency-Key", String(idempotencyKey));
    return new Request(`${origin}/v1/pets`, { method: "POST", headers, body: JSON.stringify(pet) });
  }
  if (name === "get_pet")
    return new Request(`${origin}/v1/pets/${encodeURIComponent(String(args.petId))}`, { headers });
  const query = new URLSearchParams(Object.entries(args).map(([key, value]) => [key, String(value)]));
  return new Request(`${origin}/v1/pets${query.size > 0 ? `?${query}` : ""}`, { headers });
};

/** The cursor of the answer's next link, if it has one. */
const nextCursor = (response: Response) => {
  const target = /^<([^>]*)>/.exec(response.headers.get("Link") ?? "")?.[1];
  return target ? (new URLSearchParams(target.slice(target.indexOf("?") + 1)).get("cursor") ?? undefined) : undefined;
};

/**
 * The tool's result: its value as structuredContent with a text rendering; or, for an error
 * of the API, isError with the Error body (and retryAfter, in seconds, where Retry-After was
 * sent), for the agent to act on. get_pet's results all say when it ends and what replaces it.
 */
export const callTool = async (c: Context<AppEnv>, fetchApi: ApiFetch, name: ToolName, args: Arguments) => {
  const { origin } = new URL(c.req.url);
  const request = requestFor(name, args, origin, c.req.header("Authorization") ?? "");
  // ACCESS_LOG off: this request's line is the /mcp request's own.
  const response = await fetchApi(request, { ...c.env, ACCESS_LOG: "off" }, c.executionCtx);
  const body: unknown = await response.json();
  const deprecation = name === "get_pet" ? { _meta: { deprecation: GET_PET_DEPRECATION } } : {};
  const notice =
    name === "get_pet"
      ? [
          {
            type: "text",
            text: `get_pet is deprecated: removed on ${GET_PET_DEPRECATION.sunset}; use ${GET_PET_DEPRECATION.replacedBy}.`,
          },
        ]
      : [];
  if (!response.ok) {
    const retryAfter = Number(response.headers.get("Retry-After") ?? Number.NaN);
    const error = { ...(body as object), ...(Number.isInteger(retryAfter) && { retryAfter }) };
    return { content: [{ type: "text", text: JSON.stringify(error) }, ...notice], isError: true, ...deprecation };
  }
  const cursor = name === "list_pets" ? nextCursor(response) : undefined;
  const value = name === "list_pets" ? { pets: body, ...(cursor && { nextCursor: cursor }) } : body;
  return {
    content: [{ type: "text", text: JSON.stringify(value) }, ...notice],
    structuredContent: value,
    ...deprecation,
  };
};
