// What `/` and `/v1` answer: where the API and its description are, for someone (or some
// program) that opened the bare address. The references are relative, resolved against the
// request's URL as the API's other links are (inside a gateway's path prefix too), and the
// description's are in RFC 8631's Link header as well.
import type { Context } from "hono";
import { DOCUMENT_CACHE_CONTROL } from "./documentation-headers";

const INDEX = {
  name: "Petstore API",
  docs: "v1/docs",
  openapi: "v1/openapi.json",
  pets: "v1/pets",
  mcp: "mcp",
};

export const apiIndex = (c: Context) =>
  c.json(INDEX, 200, {
    Link: `<${INDEX.openapi}>; rel="service-desc", <${INDEX.docs}>; rel="service-doc"`,
    "Cache-Control": DOCUMENT_CACHE_CONTROL,
  });
