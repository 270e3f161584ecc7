import { expect, it } from "vitest";
import { api, createPet, nextLink, type Pet } from "../helpers/client";

// The next links are relative to the request's URL: they lead to the server the client
// called, whatever Host a proxy (Prism's, in npm run test:contract) forwards.

// From the first page only: on a live deployment, walking every page could take
// thousands of requests (test/e2e/local/pagination.test.ts walks them all).
it("links each page to the next with rel=next, in ascending id order", async () => {
  for (const purpose of ["page 1", "page 2", "page 3"]) await createPet(purpose);
  const ids: number[] = [];
  let url = "/v1/pets?limit=1";
  for (let page = 1; page <= 3; page++) {
    const response = await api(url);
    expect(response.status).toBe(200);
    const pets = (await response.json()) as Pet[];
    expect(pets).toHaveLength(1);
    ids.push((pets[0] as Pet).id);
    if (page === 3) break;
    const next = nextLink(response);
    expect(next, `page ${page} of at least 3 has a next link`).toBeDefined();
    // Relative to the request's URL, as RFC 8288 resolves it: the next page is where this one was.
    const nextUrl = new URL(next as string, response.url);
    expect(nextUrl.origin).toBe(new URL(response.url).origin);
    expect(nextUrl.pathname).toBe("/v1/pets");
    expect(nextUrl.searchParams.get("limit")).toBe("1");
    expect(nextUrl.searchParams.get("cursor")).toBeTruthy();
    url = nextUrl.href;
  }
  expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
});
