// What a tool is: one declaration of its name and words, its arguments' zod rules (the same
// leaf schemas as the HTTP door's), its JSON Schemas, its operation, and how the checked
// arguments become the operation's input and its value the tool's result. The arguments are
// checked before anything runs: exact JSON types (an integer is a number, never a string of
// digits), unknown arguments refused; what is refused is a tool error naming the argument,
// which the agent can correct.
import { type $ZodObject, type output, safeParse } from "zod/v4/core";
import type { Operation, OperationContext } from "../core/operation";
import { Refusal } from "../core/refusal";
import { ApiError } from "../http/errors";
import { emptyInputVerdict, invalid } from "../http/validate";
import type { Scope } from "../keys/api-key";
import { describeJsonProblem, type JsonProblem } from "../lib/json-ambiguity";
import type { JsonSchema } from "./document-schemas";

type Annotations = {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
};

type ToolSpec<Name extends string, Args extends $ZodObject, Input, Value> = {
  name: Name;
  title: string;
  description: string;
  arguments: Args;
  /** Its schemas as MCP states them, read from the served document: built on the first listing. */
  inputSchema: () => JsonSchema;
  outputSchema: () => JsonSchema;
  annotations: Annotations;
  operation: Operation<Input, Value>;
  input: (args: output<Args>) => Input;
  result: (value: Value) => Record<string, unknown>;
  /** What the result's _meta says of the value beyond it, as the HTTP door's headers do. */
  meta?: (value: Value) => Record<string, unknown> | undefined;
  /** The status of its operation's value, as the HTTP door answers it, for the access line. */
  status: 200 | 201;
  /** What every one of its results says besides, errors too: a text line, and _meta. */
  notice?: { text: string; meta: Record<string, unknown> };
};

/** A call's outcome: the result and its _meta, or a refusal (of the arguments, or the operation's). */
export type ToolOutcome = { result: Record<string, unknown>; meta: Record<string, unknown> | undefined } | Refusal;

/** A tool as the door calls it: its operation's scope, and its arguments checked, then run. */
export const declareTool = <Name extends string, Args extends $ZodObject, Input, Value>(
  spec: ToolSpec<Name, Args, Input, Value>,
) => {
  // A tool called with no arguments at all, as an agent lists pets most often: one verdict per isolate.
  const onEmpty = emptyInputVerdict(spec.arguments);
  /** The arguments, as the tool takes them; or the refusal that names what is wrong with them. */
  const check = (args: unknown): output<Args> | ApiError => {
    // An object: the protocol checks that much (./protocol.ts).
    const result = Object.keys(args as object).length === 0 ? onEmpty() : safeParse(spec.arguments, args);
    return result.success ? result.data : invalid("arguments", result.error.issues, args);
  };
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: spec.inputSchema,
    outputSchema: spec.outputSchema,
    annotations: spec.annotations,
    status: spec.status,
    notice: spec.notice,
    scope: spec.operation.scope as Scope,
    check,
    async call(context: OperationContext, args: unknown): Promise<ToolOutcome> {
      const checked = check(args);
      if (checked instanceof Refusal) return checked;
      const outcome = await spec.operation.run(context, spec.input(checked));
      return outcome instanceof Refusal ? outcome : { result: spec.result(outcome), meta: spec.meta?.(outcome) };
    },
  };
};

export type Tool = ReturnType<typeof declareTool<string, $ZodObject, unknown, unknown>>;

/** A problem of the JSON of the arguments (src/http/json-ambiguity.ts), in the words of the pet body's. */
export const argumentsProblem = (problem: JsonProblem): ApiError =>
  new ApiError(
    "invalid_request",
    describeJsonProblem(problem, { text: "The arguments", member: "Argument" }, problem.path.slice(2)),
  );
