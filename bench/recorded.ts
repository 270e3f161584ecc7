// What the bench and its floor (./floor.ts) share: an answer of the API as
// they record and write it back (status, headers and body; Content-Length and
// Transfer-Encoding are the runtime's to write, and X-Request-Id is new on each answer).
export type RecordedAnswer = { status: number; headers: [string, string][]; body: string };
/** A recorded answer ready to be written back, its headers built once. */
export type Replay = { status: number; headers: Headers; body: string };

/** Stands for the origin of the server that answers, in recorded header values (Link, Location). */
const ORIGIN = "{origin}";
const NOT_RECORDED = new Set(["content-length", "transfer-encoding", "x-request-id"]);

/** The answer, with `origin` (the API's) written ORIGIN. */
export const recordAnswer = async (response: Response, origin: string): Promise<RecordedAnswer> => ({
  status: response.status,
  headers: [...response.headers]
    .filter(([header]) => !NOT_RECORDED.has(header))
    .map(([header, value]) => [header, value.replaceAll(origin, ORIGIN)]),
  body: await response.text(),
});

/** The recorded answer as the server at `origin` gives it. */
export const answerFrom = ({ status, headers, body }: RecordedAnswer, origin: string): Replay => ({
  status,
  headers: new Headers(headers.map(([header, value]) => [header, value.replaceAll(ORIGIN, origin)])),
  body,
});

/**
 * A new Response of the answer, with a request id of its own, as each API answer has. The
 * floor writes its headers the cheapest way we know: the runtime copies a Headers object
 * natively, where a list of pairs would be read through JavaScript, pair by pair, on every answer.
 */
export const writeBack = ({ status, headers, body }: Replay) => {
  const answer = new Response(body, { status, headers });
  answer.headers.set("X-Request-Id", crypto.randomUUID());
  return answer;
};
