import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler, ValidationTargets } from "hono";
import { createMiddleware } from "hono/factory";
import { type $ZodIssue, type $ZodObject, type $ZodType, type input, type output, safeParse } from "zod/v4/core";
import type { AppEnv } from "../env";
import { excerpt } from "../lib/display-text";
import { ApiError } from "./errors";

/** What a schema validates: a part of an HTTP request, or the arguments of a call that names them so. */
type Target = "json" | "query" | "param" | "header" | "arguments";

const FIELD_LABEL: Record<Target, string> = {
  json: "Body field",
  query: "Query parameter",
  param: "Path parameter",
  header: "Header",
  arguments: "Argument",
};

// However much is wrong, a message names this many problems and counts the rest.
const MAX_NAMED_PROBLEMS = 3;

/** The first few problems, and how many more: an error message stays short whatever the request held. */
const summarize = (problems: string[]): string =>
  problems.length <= MAX_NAMED_PROBLEMS
    ? problems.join(" ")
    : `${problems.slice(0, MAX_NAMED_PROBLEMS).join(" ")} And ${problems.length - MAX_NAMED_PROBLEMS} more.`;

const describe = (target: Target, issue: $ZodIssue, input: unknown): string[] => {
  const label = FIELD_LABEL[target];
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => `Unknown ${label.toLowerCase()} '${excerpt(key)}'.`);
  }
  if (issue.path.length === 0) return [`The request body ${issue.message}.`];
  const field = excerpt(issue.path.join("."));
  // Hono hands a repeated query parameter over as an array of its values.
  const value = (input as Record<string, unknown> | undefined)?.[String(issue.path[0])];
  if (target === "query" && Array.isArray(value)) return [`${label} '${field}' must be given once.`];
  return [`${label} '${field}' ${issue.message}.`];
};

/** A failed validation as an ApiError, so that it leaves through the one error handler, naming the offending fields. */
export const invalid = (target: Target, issues: readonly $ZodIssue[], input: unknown) => {
  const problems = [...new Set(issues.flatMap((issue) => describe(target, issue, input)))];
  return new ApiError("invalid_request", summarize(problems));
};

/**
 * The schema's verdict on an empty input (no query string, none of its headers, a tool called
 * with no arguments), reached once per isolate: most requests send none, and the verdict
 * cannot differ between them.
 * Its output is frozen, so that no request can change what the next one is handed.
 */
export const emptyInputVerdict = <Schema extends $ZodType>(schema: Schema) => {
  let verdict: ReturnType<typeof safeParse<Schema>> | undefined;
  return () => {
    if (!verdict) {
      verdict = safeParse(schema, {});
      if (verdict.success) Object.freeze(verdict.data);
    }
    return verdict;
  };
};

/**
 * zValidator with the one hook every route shares: a failure becomes an ApiError (`invalid`).
 * Path parameters and headers are read by name (`validateByName`); the body is the value that
 * jsonBody (./json-body.ts) parsed, not parsed again (`validateBody`); a request without a
 * query string gets the query schema's verdict on an empty one.
 */
export const validate = <Schema extends $ZodType, T extends Target & keyof ValidationTargets>(
  target: T,
  schema: Schema,
) => {
  const withZod = () =>
    zValidator(target, schema, (result) => {
      if (!result.success) throw invalid(target, result.error.issues as $ZodIssue[], result.data);
    });
  type Validator = ReturnType<typeof withZod>;
  if (target === "param") return validateByName("param", schema as unknown as $ZodObject) as unknown as Validator;
  if (target === "json") return validateBody(schema) as unknown as Validator;
  const validator = withZod();
  if (target !== "query") return validator;
  const onEmpty = emptyInputVerdict(schema);
  const validateQuery: MiddlewareHandler = validator;
  return createMiddleware((c, next) => {
    const verdict = c.req.url.includes("?") ? undefined : onEmpty();
    if (!verdict?.success) return validateQuery(c, next);
    c.req.addValidatedData("query", verdict.data as Record<string, unknown>);
    return next();
  }) as unknown as Validator;
};

/**
 * Path parameters and headers: the schema's own, each read by name, checked at once. zValidator
 * hands a schema every header of the request (or every parameter, each decoded), gathered on
 * each request, and checks them asynchronously: a cost on every call that reads one or two.
 */
const validateByName = (target: "param" | "header", schema: $ZodObject) => {
  const names = Object.keys(schema._zod.def.shape);
  const onEmpty = emptyInputVerdict(schema);
  return createMiddleware<AppEnv>((c, next) => {
    const values: Record<string, string> = {};
    let sent = false;
    for (const name of names) {
      const value = target === "header" ? c.req.header(name) : c.req.param(name);
      if (value !== undefined) {
        values[name] = value;
        sent = true;
      }
    }
    const result = sent ? safeParse(schema, values) : onEmpty();
    if (!result.success) throw invalid(target, result.error.issues, values);
    c.req.addValidatedData(target, result.data as Record<string, unknown>);
    return next();
  });
};

/**
 * The body, as jsonBody parsed it: Hono's validator would read its text and parse it again
 * (its `c.req.json()` always parses the text it keeps), a second parse of every create.
 */
const validateBody = (schema: $ZodType) =>
  createMiddleware<AppEnv>((c, next) => {
    const value = c.get("jsonBody");
    const result = safeParse(schema, value);
    if (!result.success) throw invalid("json", result.error.issues, value);
    c.req.addValidatedData("json", result.data as Record<string, unknown>);
    return next();
  });

/**
 * The same, for a target whose every field is optional (headers; the query of an
 * operation that takes none): typed so that a client (hc<AppType>) may leave it out
 * instead of having to pass `{}`.
 */
export const validateOptional = <Schema extends $ZodObject, T extends ("query" | "header") & keyof ValidationTargets>(
  target: T,
  schema: Schema,
) =>
  (target === "header" ? validateByName("header", schema) : validate(target, schema)) as unknown as MiddlewareHandler<
    AppEnv,
    string,
    { in: { [K in T]?: input<Schema> }; out: { [K in T]: output<Schema> } }
  >;
