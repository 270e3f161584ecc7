// The peer: the same three operations as a team would write them by default on this stack,
// for the bench to set the API beside (./run.ts). @hono/zod-openapi routes, hono/bearer-auth
// over a plain KV read of the key's hash, Drizzle queries on the binding, no caches, no D1
// session, no rate limit, an unsigned cursor. It answers what the API answers to the bench's
// targets (status and body shape); it is not the API's contract, only its common shape.
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { and, asc, eq, gt } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Context } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { pets } from "../src/db/schema";

type Env = { Bindings: { DB: D1Database; API_KEYS: KVNamespace } };

const sha256 = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");

const Status = z.enum(["available", "pending", "sold"]);
const Pet = z
  .object({ id: z.number().int(), name: z.string(), categoryId: z.number().int(), status: Status })
  .openapi("Pet");
const NewPet = z
  .object({ name: z.string().min(1).max(100), categoryId: z.number().int().positive(), status: Status.optional() })
  .openapi("NewPet");
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

const listPets = createRoute({
  method: "get",
  path: "/v1/pets",
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(20),
      status: Status.optional(),
      cursor: z.string().optional(),
    }),
  },
  responses: { 200: json(z.array(Pet), "A page of pets") },
});
const createPet = createRoute({
  method: "post",
  path: "/v1/pets",
  request: { body: { content: { "application/json": { schema: NewPet } }, required: true } },
  responses: { 201: json(Pet, "The pet") },
});
const getPet = createRoute({
  method: "get",
  path: "/v1/pets/{petId}",
  request: { params: z.object({ petId: z.coerce.number().int().positive() }) },
  responses: { 200: json(Pet, "The pet"), 404: { description: "No such pet" } },
});

const app = new OpenAPIHono<Env>();
app.get("/ready", (c) => c.text("ready", 200, { "X-Bench-Peer": "1" }));
app.use(
  "/v1/*",
  bearerAuth({
    verifyToken: async (token, c: Context<Env>) => (await c.env.API_KEYS.get(await sha256(token))) !== null,
  }),
);

app.openapi(listPets, async (c) => {
  const { limit, status, cursor } = c.req.valid("query");
  const afterId = cursor ? Number(atob(cursor)) : 0;
  const rows = await drizzle(c.env.DB, { casing: "snake_case" })
    .select()
    .from(pets)
    .where(and(gt(pets.id, afterId), status ? eq(pets.status, status) : undefined))
    .orderBy(asc(pets.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  if (rows.length > limit && last) c.header("Link", `<?limit=${limit}&cursor=${btoa(String(last.id))}>; rel="next"`);
  return c.json(page, 200);
});

app.openapi(createPet, async (c) => {
  const { name, categoryId, status = "available" } = c.req.valid("json");
  const [pet] = await drizzle(c.env.DB, { casing: "snake_case" })
    .insert(pets)
    .values({ name, categoryId, status })
    .returning();
  if (!pet) throw new Error("the insert returned no row");
  c.header("Location", `pets/${pet.id}`);
  return c.json(pet, 201);
});

app.openapi(getPet, async (c) => {
  const { petId } = c.req.valid("param");
  const pet = await drizzle(c.env.DB, { casing: "snake_case" }).select().from(pets).where(eq(pets.id, petId)).get();
  return pet ? c.json(pet, 200) : c.json({ code: "not_found", message: "No such pet.", status: 404 }, 404);
});

app.doc("/v1/openapi.json", { openapi: "3.1.0", info: { title: "Petstore (peer)", version: "1.0.0" } });

export default app;
