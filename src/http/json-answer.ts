import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";
import type { AppEnv } from "../env";
import { jsonText } from "../lib/json-text";
import { writeAnswer } from "./answer-headers";
import { headerPart } from "./header-parts";

/** The Content-Type of every JSON answer, as Hono's c.json writes it. */
export const JSON_CONTENT = headerPart({ "Content-Type": "application/json" });

type JsonAnswer<T, S extends ContentfulStatusCode> = Response & TypedResponse<JSONParsed<T>, S, "json">;

/**
 * c.json(value, status, headers), typed alike for a client (hc<AppType>), born with the
 * request's declared headers (./answer-headers.ts). `text` is the value's JSON when it has it.
 */
export const jsonAnswer = <T extends object, S extends ContentfulStatusCode>(
  c: Context<AppEnv>,
  value: T,
  status: S,
  headers?: Record<string, string>,
  text = JSON.stringify(value),
) => writeAnswer(c, text, status, JSON_CONTENT, headers) as JsonAnswer<T, S>;

/** The same, for a value from the isolate's cache: its text is written once, not on every answer that carries it. */
export const cachedJsonAnswer = <T extends object, S extends ContentfulStatusCode>(
  c: Context<AppEnv>,
  value: T,
  status: S,
  headers?: Record<string, string>,
) => jsonAnswer(c, value, status, headers, jsonText(value));
