// A caller of openapi-fetch with the types openapi-typescript generated: a create without
// `status`, a page followed by its cursor, and an error.
import createClient from "openapi-fetch";
import type { paths } from "../generated/openapi-typescript";

const client = createClient<paths>({
  baseUrl: process.env.BASE_URL,
  headers: { Authorization: `Bearer ${process.env.API_KEY}` },
});
const created = [];
for (const name of ["Fetch Rex", "Fetch Luna", "Fetch Milo"]) {
  const { data, response } = await client.POST("/pets", { body: { name, categoryId: 1 } });
  created.push([response.status, data?.status]);
}
const first = await client.GET("/pets", { params: { query: { limit: 2 } } });
const next = first.response.headers.get("Link")?.match(/^<([^>]+)>/)?.[1] ?? "";
// RFC 8288: a relative link resolves against the request's URL.
const cursor = new URL(next, first.response.url).searchParams.get("cursor") ?? undefined;
const second = await client.GET("/pets", { params: { query: { limit: 2, cursor } } });
const missing = await client.GET("/pets/{petId}", { params: { path: { petId: 987654321 } } });
console.log(
  JSON.stringify({
    created,
    first: first.data?.map(({ id }) => id),
    second: second.data?.map(({ id }) => id),
    missing: [missing.response.status, missing.error?.code, missing.response.headers.get("Sunset")],
  }),
);
