import { createClient, type DeprecationWarning } from "../../../client/src/index";

// A client whose answers a test writes, for the tests of what it makes of them
// (./client-answers.test.ts, ./client-words.test.ts).

export const KEY = `ps_test_${"Kq7".repeat(16)}z`;
export const PET = { id: 1, name: "Rex", categoryId: 1, status: "available" };
export const pet = (id: number) => ({ ...PET, id });

/** A client whose every request gets the next of `answers`, counted. */
export const answering = (...answers: (() => Response)[]) => {
  const urls: string[] = [];
  const warnings: DeprecationWarning[] = [];
  const client = createClient({
    baseUrl: "https://petstore.example/prefix/v1",
    apiKey: KEY,
    maxRetries: 0,
    onWarning: (warning) => warnings.push(warning),
    fetch: async (url) => {
      urls.push(url);
      return (answers[Math.min(urls.length, answers.length) - 1] as () => Response)();
    },
  });
  return { client, urls, warnings };
};
export const json =
  (body: unknown, headers: Record<string, string> = {}, status = 200) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "X-Request-Id": "req-1", ...headers } });
export const walk = async (listing: AsyncIterable<{ id: number }>) => {
  const ids: number[] = [];
  for await (const { id } of listing) ids.push(id);
  return ids;
};
