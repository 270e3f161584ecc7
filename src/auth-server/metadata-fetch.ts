// The sign-in Worker's only outbound request: an app's Client ID Metadata Document, which the
// library fetches when a client_id is an https URL. The CIMD draft says the server must not
// follow redirects, and takes only a 200 with application/json; the library follows
// redirects, takes any 2xx of any type, and has no hook for its fetch. So this Worker's fetch
// is made strict (./worker.ts installs it): a redirect is not followed, and any answer but a
// 200 of JSON reaches the library as a failure, which the page words as a document that
// could not be read (./sign-in.ts).

/** application/json, with or without parameters; no other type, not even one ending in +json. */
const JSON_TYPE = /^application\/json[\t ]*(;|$)/i;

/** What the library sees of an answer that is not a metadata document. */
const NOT_A_DOCUMENT = 502;

export const strictMetadataFetch =
  (fetcher: typeof fetch): typeof fetch =>
  async (input, init) => {
    const response = await fetcher(input, { ...init, redirect: "manual" });
    if (response.status === 200 && JSON_TYPE.test(response.headers.get("Content-Type") ?? "")) return response;
    await response.body?.cancel();
    return new Response(null, { status: NOT_A_DOCUMENT });
  };
