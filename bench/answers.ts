// The API's answer to each target, recorded once, for the floor to write back
// (./floor.ts): the floor under a target is a Worker that makes its binding calls and
// answers its bytes.
import { request } from "node:http";
import { type RecordedAnswer, recordAnswer } from "./recorded";
import type { Target } from "./targets";

/** A recorded answer, and how its body was framed on the wire. */
export type LoadedAnswer = RecordedAnswer & { framing: string | null };

/** How the body was framed on the wire: its length, or chunked (Content-Length is the runtime's to write). */
const framingOf = (headers: Headers) => headers.get("content-length") ?? headers.get("transfer-encoding");

/**
 * The target's request as the load sends it, answered as it arrives: Node's fetch would add
 * Accept-Encoding and undo the compression that header brings on, and a floor that wrote back a
 * gzipped answer to a load that never asked for one would pay for a gzip the API does not.
 */
const sendAsLoaded = ({ url, method = "GET", headers = {}, body }: Target) =>
  new Promise<{ response: Response; framing: string | null }>((resolve, reject) => {
    const sent = request(url, { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("error", reject);
      incoming.on("end", () => {
        const pairs = Object.entries(incoming.headersDistinct).flatMap(([name, values]) =>
          (values ?? []).map((value): [string, string] => [name, value]),
        );
        const received = new Headers(pairs);
        const framing = framingOf(received);
        resolve({
          response: new Response(Buffer.concat(chunks), { status: incoming.statusCode, headers: received }),
          framing,
        });
      });
    });
    sent.on("error", reject);
    sent.end(body);
  });

/** The API's answer to each target, by name, as the floor's ANSWERS variable holds them. */
export const recordAnswers = async <Name extends string>(targets: Record<Name, Target>, origin: string) => {
  const recorded = {} as Record<Name, LoadedAnswer>;
  for (const [name, target] of Object.entries<Target>(targets)) {
    const { response, framing } = await sendAsLoaded(target);
    recorded[name as Name] = { ...(await recordAnswer(response, origin)), framing };
  }
  return recorded;
};

/**
 * A reference that does not write back the answer it was given would make the floor look
 * cheap: its answer is checked first, against the recording, bytes and framing as they
 * arrive (each server's own origin written alike).
 */
export const checkReplay = async (target: Target, recorded: LoadedAnswer, origin: string) => {
  const { response, framing } = await sendAsLoaded(target);
  const replayed: LoadedAnswer = { ...(await recordAnswer(response, origin)), framing };
  if (JSON.stringify(replayed) !== JSON.stringify(recorded)) {
    throw new Error(`${target.name} does not write back the API's answer: ${JSON.stringify(replayed).slice(0, 500)}`);
  }
};
