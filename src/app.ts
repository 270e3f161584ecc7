import { apiIndex } from "./document/api-index";
import { documentationRoutes } from "./document/routes";
import { apiCors, DOCUMENT_PATH, documentCors } from "./http/cors";
import { markDeprecatedOperations } from "./http/deprecation-headers";
import { handleError } from "./http/errors";
import { notFoundOrMethodNotAllowed } from "./http/method-not-allowed";
import { noStore } from "./http/no-store";
import { requestLog } from "./http/request-log";
import { routeMethods } from "./http/route-methods";
import { newApp } from "./http/router";
import { mcpCors, mcpRoutes } from "./mcp/routes";
import { signInRoutes } from "./oauth/protected-resource";
import { PETS_PATH, petRoutes } from "./rest/routes";

// The path of every request, in order: the access log around everything, the headers that
// every pets answer carries, the deprecated operation's headers, CORS, then the routes; where
// none answers, the 404 or the 405; one handler for every error. Each operation's own checks
// are on its chain in src/rest/routes.ts.
export const app = newApp();
// The methods each path's routes declare, for the 405s and the preflights.
const methods = routeMethods(app);

app.use(requestLog);
// Declared ahead of the routes, so that every answer of these paths carries them, the 404s
// and 405s included. "/v1/pets/*" matches /v1/pets itself and every path under it, unknown ones included.
app.use("/v1/pets/*", noStore);
markDeprecatedOperations(app);
// Ahead of the routes (a preflight, an OPTIONS, is answered here, not given the 405) and of authentication.
app.use("/v1/*", apiCors(methods));
app.use(DOCUMENT_PATH, documentCors);
app.use("/mcp", mcpCors);
app.route("/v1", documentationRoutes);
app.get("/", apiIndex);
app.use("/mcp", noStore);
// Agents' tools: the same operations as the routes below, behind a door of their own (src/mcp/tools.ts, src/mcp/call.ts).
app.route("/mcp", mcpRoutes);
// OAuth for /mcp: its metadata, and the sign-in Worker's paths on this host.
app.route("/", signInRoutes);
const routes = app.route(PETS_PATH, petRoutes);
app.notFound(notFoundOrMethodNotAllowed(methods));
app.onError(handleError);

/** The API's routes and their types, for a typed client: `hc<AppType>(baseUrl)`. */
export type AppType = typeof routes;
