// A caller of the SDK @hey-api/openapi-ts generated: a create without `status`, a page
// followed by its cursor, and an error.
import { client } from "../generated/hey-api/client.gen";
import { createPet, getPet, listPets } from "../generated/hey-api/sdk.gen";

client.setConfig({ baseUrl: process.env.BASE_URL, auth: process.env.API_KEY });
const created = [];
for (const name of ["Hey Rex", "Hey Luna", "Hey Milo"]) {
  const { data, response } = await createPet({ body: { name, categoryId: 1 } });
  created.push([response?.status, data?.status]);
}
const first = await listPets({ query: { limit: 2 } });
const next = first.response?.headers.get("Link")?.match(/^<([^>]+)>/)?.[1] ?? "";
// RFC 8288: a relative link resolves against the request's URL.
const cursor = new URL(next, first.response?.url).searchParams.get("cursor") ?? undefined;
const second = await listPets({ query: { limit: 2, cursor } });
const missing = await getPet({ path: { petId: 987654321 } });
console.log(
  JSON.stringify({
    created,
    first: first.data?.map(({ id }) => id),
    second: second.data?.map(({ id }) => id),
    missing: [missing.response?.status, missing.error?.code, missing.response?.headers.get("Sunset")],
  }),
);
