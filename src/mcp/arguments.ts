// Each tool's arguments, checked before anything runs by the same zod rules as its
// operation's input: exact JSON types (an integer is a number, never a string of digits),
// unknown arguments refused, and create_pet's idempotencyKey held to the Idempotency-Key
// header's own rules, never trimmed or converted. What is refused is a tool error naming
// the argument (src/mcp/call.ts): the agent can correct its call.
import * as z from "zod/mini";
import { safeParse } from "zod/v4/core";
import { ApiError } from "../http/errors";
import { describeJsonProblem, type JsonProblem } from "../http/json-ambiguity";
import { invalid, verdictOnEmpty } from "../http/validate";
import {
  cursorSchema,
  idempotencyKeySchema,
  idSchema,
  LIST_LIMIT,
  limitSchema,
  newPetSchema,
  petStatusSchema,
} from "../schemas";
import type { ToolName } from "./tools";

const ARGUMENTS = {
  list_pets: z.strictObject({
    limit: z._default(limitSchema, LIST_LIMIT.default),
    status: z.optional(petStatusSchema),
    cursor: z.optional(cursorSchema),
  }),
  create_pet: z.strictObject({ ...newPetSchema.def.shape, idempotencyKey: z.optional(idempotencyKeySchema) }),
  get_pet: z.strictObject({ petId: idSchema }),
};

/** Each tool's arguments, once checked: what its zod schema gives. */
export type ToolArguments = { [Name in keyof typeof ARGUMENTS]: z.output<(typeof ARGUMENTS)[Name]> };

/** Each tool's verdict on no arguments at all, as an agent lists pets most often. */
const ON_EMPTY = {
  list_pets: verdictOnEmpty(ARGUMENTS.list_pets),
  create_pet: verdictOnEmpty(ARGUMENTS.create_pet),
  get_pet: verdictOnEmpty(ARGUMENTS.get_pet),
};

/** The arguments, as their tool takes them; or the ApiError that names what is wrong with them. */
export const checkArguments = <Name extends ToolName>(name: Name, args: unknown): ToolArguments[Name] | ApiError => {
  // An object: the protocol checks that much (./protocol.ts).
  const empty = Object.keys(args as object).length === 0;
  const result = empty ? ON_EMPTY[name]() : safeParse(ARGUMENTS[name], args);
  return result.success
    ? (result.data as ToolArguments[Name])
    : invalid("arguments", result.error.issues, args as Record<string, unknown>);
};

/** A problem of the JSON of the arguments (src/http/json-ambiguity.ts), in the words of the pet body's. */
export const argumentsProblem = (problem: JsonProblem): ApiError =>
  new ApiError(
    "invalid_request",
    describeJsonProblem(problem, { text: "The arguments", member: "Argument" }, problem.path.slice(2)),
  );
