// A tool call: the MCP door of an operation. Its arguments are checked by the same zod rules
// as the HTTP door's input (./arguments.ts), then the operation itself runs (src/core/), as the
// caller admitted at /mcp's door, on the count and the access line of the /mcp request: the
// same scope, idempotency, cursor, deprecation and brownouts as over HTTP, from the same code.
import type { Context } from "hono";
import { createPet } from "../core/create-pet";
import { getPet } from "../core/get-pet";
import { listPets, type PetsPage } from "../core/list-pets";
import { type Operation, scopeRefusal } from "../core/operation";
import type { Refusal } from "../core/refusal";
import type { AppEnv } from "../env";
import { toRefusal } from "../http/errors";
import { operationContext } from "../http/operation-context";
import { jsonText, keepJsonText } from "../lib/json-text";
import { insufficientScope } from "../oauth/protected-resource";
import { checkArguments, type ToolArguments } from "./arguments";
import { GET_PET_DEPRECATION, type ToolName } from "./tools";

/**
 * list_pets' value. A page from the isolate's memory is the same array on every call, and
 * its text is kept (src/lib/json-text.ts): the value's text is written around it, as
 * JSON.stringify writes the value, rather than the page serialized again.
 */
export const pageResult = ({ pets, nextCursor, fromCache }: PetsPage) => {
  const value = { pets, ...(nextCursor !== undefined && { nextCursor }) };
  if (fromCache) {
    const next = nextCursor === undefined ? "" : `,"nextCursor":${JSON.stringify(nextCursor)}`;
    keepJsonText(value, `{"pets":${jsonText(pets)}${next}}`);
  }
  return value;
};

/** Each tool's operation, its input from the checked arguments, and its value as the tool's result. */
type Binding<Name extends ToolName, Input, Value> = {
  operation: Operation<Input, Value>;
  input: (args: ToolArguments[Name]) => Input;
  result: (value: Value) => Record<string, unknown>;
  /** What the result's _meta says of the value beyond it, as the HTTP door's headers do. */
  meta?: (value: Value) => Record<string, unknown> | undefined;
  /** The status of its operation's value, as the HTTP door answers it, for the access line. */
  status: 200 | 201;
};
const bind =
  <Name extends ToolName>() =>
  <Input, Value>(binding: Binding<Name, Input, Value>) =>
    binding;
const BINDINGS = {
  list_pets: bind<"list_pets">()({
    operation: listPets,
    input: (args: ToolArguments["list_pets"]) => args,
    result: pageResult,
    status: 200,
  }),
  create_pet: bind<"create_pet">()({
    operation: createPet,
    input: ({ idempotencyKey, ...pet }: ToolArguments["create_pet"]) => ({ pet, idempotencyKey }),
    result: ({ pet }) => pet,
    // As Idempotent-Replayed says over HTTP: the pet is the one an earlier call with the key created.
    meta: ({ replayed }) => (replayed ? { idempotentReplayed: true } : undefined),
    status: 201,
  }),
  get_pet: bind<"get_pet">()({
    operation: getPet,
    input: (args: ToolArguments["get_pet"]) => args,
    result: ({ pet }) => pet,
    status: 200,
  }),
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

/** The access line of the /mcp request names the tool and carries its operation's status (src/http/request-log.ts). */
const logCall = (c: Context<AppEnv>, name: ToolName, status: number) =>
  c.set("operationOutcome", { status, fields: { tool: name } });

/**
 * A refusal as the tool's result: isError with the Error body, for the agent to act on, and
 * retryAfter (in seconds) where the refusal says when to come back.
 */
export const refusedCall = (c: Context<AppEnv>, name: ToolName, error: Refusal) => {
  logCall(c, name, error.status);
  c.set("errorCode", error.code);
  const { retryAfter } = error;
  const body = {
    code: error.code,
    message: error.message,
    status: error.status,
    ...(retryAfter !== undefined && { retryAfter }),
  };
  const { notice, meta } = deprecationOf(name);
  return { content: [{ type: "text", text: JSON.stringify(body) }, ...notice], isError: true, ...meta };
};

/** Runs a bound operation on checked arguments: its result and _meta, or its refusal. */
const runBound = <Name extends ToolName, Input, Value>(
  c: Context<AppEnv>,
  binding: Binding<Name, Input, Value>,
  args: ToolArguments[Name],
) =>
  binding.operation
    .run(operationContext(c), binding.input(args))
    .then((outcome) =>
      outcome instanceof Error ? outcome : { result: binding.result(outcome), meta: binding.meta?.(outcome) },
    );

/**
 * The tool's result: its operation's value as structuredContent with a text rendering; or,
 * for a refusal (the arguments' JSON, then their rules, then the operation's own), isError
 * with the Error body. A credential without the operation's scope is refused first, whatever
 * the arguments hold, as HTTP 403 with MCP's scope challenge
 * (src/oauth/protected-resource.ts), so that a host can sign in for it. A fault of the operation is
 * answered as the HTTP door answers it, as internal_error. get_pet's results all say when it
 * ends and what replaces it.
 */
export const callTool = async (c: Context<AppEnv>, name: ToolName, args: unknown, jsonProblem?: Refusal) => {
  const binding = BINDINGS[name] as Binding<ToolName, unknown, unknown>;
  const refused = scopeRefusal(c.get("apiKey"), binding.operation.scope);
  if (refused) {
    logCall(c, name, refused.status);
    throw insufficientScope(c, refused);
  }
  if (jsonProblem) return refusedCall(c, name, jsonProblem);
  const checked = checkArguments(name, args);
  if (checked instanceof Error) return refusedCall(c, name, checked);
  let value: { result: Record<string, unknown>; meta: Record<string, unknown> | undefined } | Refusal;
  try {
    value = await runBound(c, binding, checked);
  } catch (error) {
    value = toRefusal(error instanceof Error ? error : new Error(String(error)), c);
  }
  if (value instanceof Error) return refusedCall(c, name, value);
  logCall(c, name, binding.status);
  const { notice, meta } = deprecationOf(name);
  const { result } = value;
  const content = [{ type: "text", text: jsonText(result) }, ...notice];
  return { content, structuredContent: result, ...meta, ...(value.meta && { _meta: value.meta }) };
};
