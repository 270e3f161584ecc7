import { expect } from "vitest";

type ErrorBody = { code: string; message: string; status: number };

/**
 * Asserts the Error body and its agreement with the HTTP status; returns the body.
 * Shared by the suite inside workerd (test/helpers/index.ts) and the one over HTTP (test/e2e).
 */
export const expectError = async (response: Response, status: number, code: string): Promise<ErrorBody> => {
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const body = (await response.json()) as ErrorBody;
  expect(Object.keys(body).sort()).toEqual(["code", "message", "status"]);
  expect(body).toMatchObject({ code, status });
  expect(response.status).toBe(status);
  expect(body.message).not.toBe("");
  return body;
};

/** A 503 `unavailable`, which tells the client when to try again. */
export const expectUnavailable = async (response: Response): Promise<ErrorBody> => {
  const error = await expectError(response, 503, "unavailable");
  expect(response.headers.get("Retry-After")).toBe("3");
  return error;
};
