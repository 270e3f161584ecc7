import autocannon from "autocannon";
import { expect, it } from "vitest";
import { apiKey, baseUrl, createPet } from "../helpers/client";

// Many connections at once: cached full pages, partial pages (a D1 query each) and keyed
// creates (a D1 batch each), in turn on every connection. Every answer is a 2xx, with
// no connection error, and none left unanswered. Not a benchmark (npm run bench is one): a set number of
// requests, however fast the machine answers them, to show nothing breaks under load.

const CONNECTIONS = 256;
/** Requests per connection: each kind once. */
const PER_CONNECTION = 3;

it(`answers ${CONNECTIONS} connections, ${PER_CONNECTION} requests each, with nothing but 2xx`, async () => {
  for (let pet = 0; pet < 6; pet++) await createPet("under load");
  const auth = { Authorization: `Bearer ${apiKey}` };
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    amount: CONNECTIONS * PER_CONNECTION,
    // Seconds a request may take: a loaded machine answers slowly, which is not what this tests.
    timeout: 90,
    requests: [
      { method: "GET", path: "/v1/pets?limit=5", headers: auth },
      { method: "GET", path: "/v1/pets?status=sold", headers: auth },
      {
        method: "POST",
        path: "/v1/pets",
        headers: { ...auth, "Content-Type": "application/json" },
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, "Idempotency-Key": crypto.randomUUID() },
          body: JSON.stringify({ name: `smoke-test under load ${crypto.randomUUID().slice(0, 8)}`, categoryId: 1 }),
        }),
      },
    ],
  });
  // In one comparison, so that a failure shows what the other answers were.
  const { non2xx, errors, timeouts } = result;
  expect({ ok: result["2xx"], non2xx, errors, timeouts }).toEqual({
    ok: CONNECTIONS * PER_CONNECTION,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
  });
});
