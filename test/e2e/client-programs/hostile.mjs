// The packed client, run by Node.js 20 against a stand-in that misbehaves
// (test/e2e/helpers/hostile-server.ts), and through it against the real API: prints what
// each call gave, as JSON, for test/e2e/local/client-package.test.ts to check.
import { createClient } from "@petstore-edge/client";

const { STAND_IN: origin, API_KEY: apiKey } = process.env;
const fakeKey = `ps_test_${"a".repeat(43)}`;
const client = (behaviour, options = {}) =>
  createClient({ baseUrl: `${origin}/${behaviour}/v1`, apiKey: fakeKey, maxRetries: 0, ...options });

/** What a call gave: its value, or the error's class, code, message and idempotencyKey. */
const outcome = async (call) => {
  try {
    return { value: await call() };
  } catch (error) {
    const { name, code, message, idempotencyKey } = error;
    return { error: name, code, message, idempotencyKey };
  }
};
const walk = async (listing) => {
  let pets = 0;
  for await (const _ of listing) pets++;
  return pets;
};

const heapBefore = process.memoryUsage().heapUsed;
const huge = await outcome(() => client("huge").listPets());
const heapGrowthMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

const bookmarked = client("bookmark");
await bookmarked.listPets();
await bookmarked.listPets();

// Through a relay that cuts the first 201 of each Idempotency-Key: with its retries, the
// client reads the replay; without, the error's key gets the pet from a second call.
const lost = (options) => createClient({ baseUrl: `${origin}/lost/v1`, apiKey, sleep: async () => {}, ...options });
const recovered = await outcome(() => lost({}).createPet({ name: "Lost Rex", categoryId: 1 }));
const dropped = await outcome(() => lost({ maxRetries: 0 }).createPet({ name: "Lost Tom", categoryId: 1 }));
const again = await outcome(() =>
  lost({}).createPet({ name: "Lost Tom", categoryId: 1 }, { idempotencyKey: dropped.idempotencyKey }),
);

console.log(
  JSON.stringify({
    node: process.version,
    huge,
    heapGrowthMiB,
    nullList: await outcome(() => client("null").listPets()),
    objectList: await outcome(() => client("object").listPets()),
    arrayForAPet: await outcome(() => client("object").getPet(1)),
    walkNull: await outcome(() => walk(client("null").listAllPets())),
    repeatedCursor: await outcome(() => walk(client("repeat").listAllPets())),
    redirect: await outcome(() => client("redirect").listPets()),
    badNextLink: await outcome(() => client("badlink").listPets()),
    badSuccessor: await outcome(() =>
      client("badlink", { onWarning: () => {} }).createPet({ name: "Rex", categoryId: 1 }),
    ),
    emptyPages: await outcome(() => walk(client("empty").listAllPets())),
    echoedKey: await outcome(() => client("echo").listPets()),
    unknownCode: await outcome(() => client("teapot").listPets()),
    bookmark: bookmarked.bookmark ?? null,
    recovered,
    dropped,
    again,
  }),
);
