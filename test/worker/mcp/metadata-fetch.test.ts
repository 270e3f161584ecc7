import { describe, expect, it } from "vitest";
import { strictMetadataFetch } from "../../../src/auth-server/metadata-fetch";

// The sign-in Worker's fetch of an app's metadata document, on answers an origin could give:
// it asks the runtime not to follow a redirect, and hands the library only a 200 of
// application/json (the CIMD draft). Through the real runtime and HTTPS, with the library
// reading the page's answer: test/e2e/local/oauth-metadata-documents.test.ts.

const URL_OF_DOCUMENT = "https://app.example/client.json";

/** An origin that answers every request with `answer`, and the redirect mode each was asked with. */
const origin = (answer: () => Response) => {
  const modes: RequestInit["redirect"][] = [];
  const fetcher = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    modes.push(init?.redirect);
    return answer();
  }) as typeof fetch;
  return { fetch: strictMetadataFetch(fetcher), modes };
};

const json = (status: number, type = "application/json") =>
  new Response('{"client_id":"https://app.example/client.json"}', { status, headers: { "Content-Type": type } });

describe("a metadata document's fetch", () => {
  it("is asked not to follow redirects, and hands a redirect on as a failure", async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const { fetch, modes } = origin(
        () => new Response(null, { status, headers: { Location: "https://elsewhere.example/client.json" } }),
      );
      const answer = await fetch(URL_OF_DOCUMENT, { headers: { Accept: "application/json" } });
      expect(answer.status, String(status)).toBe(502);
      expect(modes).toEqual(["manual"]);
    }
  });

  it("hands on a 200 of application/json as it came, with or without parameters", async () => {
    for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON"]) {
      const answer = await origin(() => json(200, type)).fetch(URL_OF_DOCUMENT);
      expect(answer.status, type).toBe(200);
      expect(await answer.json()).toEqual({ client_id: URL_OF_DOCUMENT });
    }
  });

  it("hands on any other status, or any other type, as a failure", async () => {
    for (const [status, type] of [
      [201, "application/json"],
      [203, "application/json"],
      [200, "text/html"],
      [200, "application/jsonp"],
      [200, "application/problem+json"],
      [200, "text/x-application/json"],
      [200, ""],
    ] as const) {
      const answer = await origin(() => json(status, type)).fetch(URL_OF_DOCUMENT);
      expect(answer.status, `${status} ${type}`).toBe(502);
    }
  });
});
