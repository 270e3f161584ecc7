import { Hono } from "hono";
import type { AppEnv } from "../env";

/** A Hono app, for the app and each part it mounts: Hono's own, with its default router. */
export const newApp = () => new Hono<AppEnv>();
