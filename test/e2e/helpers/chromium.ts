import { existsSync } from "node:fs";
import { type BrowserServer, chromium, type Page } from "playwright-core";
import { inject } from "vitest";
import { conformanceProblems } from "../../helpers/conformance";

// Where Chromium or Chrome usually lives on Linux and macOS, in order of preference.
const USUAL_LOCATIONS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/snap/bin/chromium",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

/** The browser the Node tests drive: $CHROMIUM_PATH, else the first usual location that exists. */
export const findChromium = (): string => {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH is set to ${configured}, which does not exist.`);
    return configured;
  }
  const found = USUAL_LOCATIONS.find((location) => existsSync(location));
  if (found) return found;
  throw new Error(
    [
      "No Chromium found for the browser tests. Install one, for example:",
      "  Debian/Ubuntu: sudo apt-get install chromium",
      "  macOS:         brew install --cask chromium",
      "or point CHROMIUM_PATH at a Chromium or Chrome executable.",
      `Looked in: ${USUAL_LOCATIONS.join(", ")}.`,
    ].join("\n"),
  );
};

// Headless, as root in CI, and quiet on a machine with no network: without the
// background-networking switches Chromium keeps trying to reach Google's services.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The e2e run's Chromium, or why there is none (which only the files that drive it report). */
export type SharedChromium = { endpoint: string } | { missing: string };

/**
 * One Chromium for the e2e run (test/e2e/helpers/global-setup.ts), rather than one launched
 * by each file that drives it: each file connects with a browser of its own, whose contexts
 * and pages it closes by closing that browser.
 */
export const launchSharedChromium = async (): Promise<{ shared: SharedChromium; close: () => Promise<void> }> => {
  let server: BrowserServer;
  try {
    server = await chromium.launchServer({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  } catch (error) {
    return { shared: { missing: (error as Error).message }, close: async () => {} };
  }
  return { shared: { endpoint: server.wsEndpoint() }, close: () => server.close() };
};

/** A browser of this file's own on the run's Chromium. */
export const connectChromium = () => {
  const shared = inject("chromium") ?? { missing: "This run has no Chromium: it tests a deployment (npm run smoke)." };
  if ("missing" in shared) throw new Error(shared.missing);
  return chromium.connect(shared.endpoint);
};

/**
 * Every answer of the API that a page receives, checked against openapi.json as the Node
 * tests' own requests are (test/helpers/conformance.ts), preflights left out there alike.
 * Each answer is held at the network (the DevTools protocol's Fetch domain) while its body
 * is copied, then let through unchanged: the page reads it as it would have, whether it
 * reads it whole, as a stream, or not at all.
 */
export const watchApiAnswers = async (page: Page, apiOrigin: string) => {
  const checked: Promise<string[]>[] = [];
  const devtools = await page.context().newCDPSession(page);
  devtools.on("Fetch.requestPaused", (paused) => {
    const { requestId, request, responseStatusCode: status = 0, responseHeaders = [] } = paused;
    checked.push(
      (async () => {
        const where = `${request.method} ${request.url} (${status}, in Chromium)`;
        const bodiless = request.method === "HEAD" || [204, 304].includes(status);
        // Let through whatever happens, so that a failed copy shows as a problem, not a hung page.
        const copied = await (bodiless
          ? Promise.resolve({ body: "", base64Encoded: false })
          : devtools.send("Fetch.getResponseBody", { requestId })
        )
          .catch((error: Error) => error)
          .finally(() => devtools.send("Fetch.continueRequest", { requestId }));
        if (copied instanceof Error) return [`${where}: its body could not be copied: ${copied.message}`];
        const sent = new Request(request.url, { method: request.method, headers: request.headers });
        const headers = responseHeaders.map(({ name, value }): [string, string] => [name, value]);
        const content = bodiless ? null : Buffer.from(copied.body, copied.base64Encoded ? "base64" : "utf8");
        const problems = await conformanceProblems(sent, new Response(content, { status, headers }));
        return problems.map((problem) => `${where}: ${problem}`);
      })(),
    );
  });
  await devtools.send("Fetch.enable", { patterns: [{ urlPattern: `${apiOrigin}/*`, requestStage: "Response" }] });
  return {
    /** How many answers were seen, and what in them departs from the document. */
    problems: async () => ({ answers: checked.length, problems: (await Promise.all(checked)).flat() }),
  };
};
