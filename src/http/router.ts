import { HonoBase } from "hono/hono-base";
import { RegExpRouter } from "hono/router/reg-exp-router";
import type { AppEnv } from "../env";

/**
 * A Hono app on RegExpRouter, for the app and each part it mounts: the router that Hono's
 * default (SmartRouter) settles on for these routes, without bundling the others it would
 * try first (about 1 KiB of the gzip Worker).
 */
export const newApp = () => new HonoBase<AppEnv>({ router: new RegExpRouter() });
