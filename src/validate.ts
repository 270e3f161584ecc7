import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler, ValidationTargets } from "hono";
import type { $ZodIssue, $ZodType, input, output } from "zod/v4/core";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";

type Target = "json" | "query" | "param" | "header";

const FIELD_LABEL: Record<Target, string> = {
  json: "Body field",
  query: "Query parameter",
  param: "Path parameter",
  header: "Header",
};

const describe = (target: Target, issue: $ZodIssue): string => {
  const label = FIELD_LABEL[target];
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => `Unknown ${label.toLowerCase()} '${key}'.`).join(" ");
  }
  if (issue.path.length === 0) return `The request body ${issue.message}.`;
  return `${label} '${issue.path.join(".")}' ${issue.message}.`;
};

/**
 * zValidator with the one hook every route shares: a failure becomes an ApiError,
 * so it leaves through the same error handler as everything else, naming each
 * offending field.
 */
export const validate = <Schema extends $ZodType, T extends Target & keyof ValidationTargets>(
  target: T,
  schema: Schema,
) =>
  zValidator(target, schema, (result) => {
    if (!result.success) {
      const issues = result.error.issues as $ZodIssue[];
      throw new ApiError("invalid_request", issues.map((issue) => describe(target, issue)).join(" "));
    }
  });

/**
 * The same, for headers whose every field is optional: typed so that a client
 * (hc<AppType>) may leave `header` out instead of having to pass `header: {}`.
 */
export const validateHeaders = <Schema extends $ZodType<Record<string, unknown>>>(schema: Schema) =>
  validate("header", schema) as unknown as MiddlewareHandler<
    AppEnv,
    string,
    { in: { header?: input<Schema> }; out: { header: output<Schema> } }
  >;
