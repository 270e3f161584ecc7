import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { sha256Hex } from "../api-keys";
import { requireApiKey } from "../auth";
import { readCursor, writeCursor } from "../cursor";
import { createSessionDatabase } from "../db/client";
import { findPet, insertPet, insertPetOnce, listPets } from "../db/pets";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { cachedPage, cachedPets, cachePage, type FullPage } from "../pet-cache";
import { rateLimit } from "../rate-limit";
import {
  createPetHeadersSchema,
  listPetsQuerySchema,
  type NewPet,
  newPetSchema,
  type Pet,
  petParamsSchema,
  sessionHeadersSchema,
} from "../schemas";
import { validate, validateHeaders } from "../validate";

export const MAX_BODY_BYTES = 64 * 1024;

// RFC 9745 (Deprecation, as "@" + Unix seconds) and RFC 8594 (Sunset). The
// deprecation date must not be later than the sunset.
export const GET_PET_DEPRECATED_AT = Date.UTC(2026, 10, 21) / 1000;
export const GET_PET_SUNSET = new Date(Date.UTC(2030, 11, 5));

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

const DEPRECATION_HEADERS = [
  ["Deprecation", `@${GET_PET_DEPRECATED_AT}`],
  ["Sunset", GET_PET_SUNSET.toUTCString()],
  ["Link", '</v1/pets>; rel="successor-version"'],
] as const;

/** Added to every answer of the deprecated route, errors included. */
export const deprecated = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  for (const [name, value] of DEPRECATION_HEADERS) c.res.headers.set(name, value);
});

// Answers about pets are for the caller only: no shared or browser cache may keep them.
export const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.res.headers.set("Cache-Control", "no-store");
});

export const BOOKMARK_HEADER = "x-d1-bookmark";

/**
 * Opens the request's D1 session on first use only: an answer from the pet cache
 * needs no database. Every response carries the session's bookmark (or, when no
 * query ran, the one the client sent).
 */
const withSession = createMiddleware<AppEnv>(async (c, next) => {
  const bookmark = c.req.header(BOOKMARK_HEADER);
  let opened: ReturnType<typeof createSessionDatabase> | undefined;
  c.set("db", () => {
    opened ??= createSessionDatabase(c.env.DB, bookmark);
    return opened.db;
  });
  await next();
  const latest = opened ? opened.session.getBookmark() : bookmark;
  if (latest) c.res.headers.set(BOOKMARK_HEADER, latest);
});

// Without this, Hono's JSON validator would read a body sent as text/plain as {}.
const requireJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const mediaType = c.req.header("Content-Type")?.split(";")[0]?.trim() ?? "";
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw new ApiError("unsupported_media_type", "The request body must be sent as application/json.");
  }
  await next();
});

const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError("payload_too_large", `The request body must not exceed ${MAX_BODY_BYTES} bytes.`);
  },
});

/** Two bodies are the same request when they validate to the same pet. */
const requestHash = ({ name, categoryId, status }: NewPet) => sha256Hex(JSON.stringify([name, categoryId, status]));

export const petRoutes = new Hono<AppEnv>()
  .use(requireApiKey, rateLimit, validateHeaders(sessionHeadersSchema), withSession)
  .get("/", validate("query", listPetsQuerySchema), async (c) => {
    const { limit, status, cursor } = c.req.valid("query");
    const afterId = cursor !== undefined ? await readCursor(c.env.CURSOR_SECRET, cursor, status) : 0;
    let page: Pet[];
    let nextCursor: string | undefined;
    const cached = cachedPage(afterId, limit, status);
    if (cached) {
      ({ pets: page, nextCursor } = cached);
    } else {
      // One row more than the page tells whether a next page exists, in the same query.
      const rows = await listPets(c.var.db(), { afterId, limit: limit + 1, status });
      page = rows.slice(0, limit);
      const last = page.at(-1);
      if (rows.length > limit && last) {
        nextCursor = await writeCursor(c.env.CURSOR_SECRET, { afterId: last.id, status });
        cachePage(afterId, limit, status, { pets: page, nextCursor } satisfies FullPage);
      }
    }
    if (nextCursor) {
      const next = new URL(c.req.url);
      next.search = new URLSearchParams({
        limit: String(limit),
        ...(status && { status }),
        cursor: nextCursor,
      }).toString();
      c.header("Link", `<${next}>; rel="next"`);
    }
    return c.json(page, 200);
  })
  .post(
    "/",
    requireJsonBody,
    limitBody,
    validateHeaders(createPetHeadersSchema),
    validate("json", newPetSchema),
    async (c) => {
      const newPet = c.req.valid("json");
      const idempotencyKey = c.req.valid("header")["idempotency-key"];
      if (idempotencyKey === undefined) {
        const pet = await insertPet(c.var.db(), newPet);
        cachedPets.set(pet.id, pet);
        return c.json(pet, 201, { Location: `/v1/pets/${pet.id}` });
      }
      const { pet, replayed, sameRequest } = await insertPetOnce(c.var.db(), newPet, {
        apiKeyHash: c.var.apiKey.hash,
        idempotencyKey,
        requestHash: await requestHash(newPet),
        now: Date.now(),
      });
      if (!sameRequest) {
        throw new ApiError(
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different request body; use a new key for a new pet.",
        );
      }
      cachedPets.set(pet.id, pet);
      return c.json(pet, 201, {
        Location: `/v1/pets/${pet.id}`,
        ...(replayed && { "Idempotent-Replayed": "true" }),
      });
    },
  )
  .get("/:petId", validate("param", petParamsSchema), async (c) => {
    const { petId } = c.req.valid("param");
    let pet = cachedPets.get(petId);
    if (!pet) {
      pet = await findPet(c.var.db(), petId);
      // A missing id is not cached: a pet may be created with it later.
      if (!pet) throw new ApiError("not_found", `No pet has the id ${petId}.`);
      cachedPets.set(petId, pet);
    }
    return c.json(pet, 200);
  });
