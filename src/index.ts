import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppEnv } from "./env";
import { handleError, handleMethodNotAllowed, handleNotFound } from "./errors";
import { documentationRoutes } from "./routes/documentation";
import { petRoutes } from "./routes/pets";

export const app = new Hono<AppEnv>();

app.use(methodNotAllowed({ app, onMethodNotAllowed: handleMethodNotAllowed }));
app.route("/v1", documentationRoutes);
const routes = app.route("/v1/pets", petRoutes);
app.notFound(handleNotFound);
app.onError(handleError);

/** The API's routes and their types, for a typed client: `hc<AppType>(baseUrl)`. */
export type AppType = typeof routes;

export default app;
