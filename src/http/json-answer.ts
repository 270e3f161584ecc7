import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";
import { jsonText } from "../lib/json-text";

/**
 * c.json(value, status), typed alike for a client (hc<AppType>), for a value from the
 * isolate's cache: its text is written once, not on every answer that carries it.
 */
export const cachedJson = <T extends object, S extends ContentfulStatusCode>(c: Context, value: T, status: S) =>
  c.body(jsonText(value), status, { "Content-Type": "application/json" }) as unknown as Response &
    TypedResponse<JSONParsed<T>, S, "json">;
