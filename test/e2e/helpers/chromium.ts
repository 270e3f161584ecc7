import { existsSync } from "node:fs";
import type { Page } from "playwright-core";
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

const BODY_WAIT_MS = 3000;

/**
 * Every answer of the API that a page receives, checked against openapi.json as the Node
 * tests' own requests are (test/helpers/conformance.ts), preflights left out there alike.
 * Read `problems()` before the page closes: a closed page's bodies are gone.
 */
export const watchApiAnswers = (page: Page, apiOrigin: string) => {
  const checked: Promise<string[]>[] = [];
  page.on("response", (answer) => {
    const sent = answer.request();
    if (!sent.url().startsWith(`${apiOrigin}/`)) return;
    checked.push(
      (async () => {
        const [requestHeaders, headers] = await Promise.all([sent.allHeaders(), answer.allHeaders()]);
        const status = answer.status();
        const bodiless = sent.method() === "HEAD" || [204, 304].includes(status);
        // Chromium gives a body only once its page has read it: one never read is reported, not waited for.
        const unread = new Promise<undefined>((resolve) => setTimeout(resolve, BODY_WAIT_MS));
        const body = bodiless ? null : await Promise.race([answer.body(), unread]).catch(() => undefined);
        const where = `${sent.method()} ${sent.url()} (${status}, in Chromium)`;
        if (body === undefined) return [`${where}: its body was never read by the page, so it cannot be checked`];
        const request = new Request(sent.url(), { method: sent.method(), headers: requestHeaders });
        const problems = await conformanceProblems(request, new Response(body, { status, headers }));
        return problems.map((problem) => `${where}: ${problem}`);
      })(),
    );
  });
  return {
    /** How many answers were seen, and what in them departs from the document. */
    problems: async () => ({ answers: checked.length, problems: (await Promise.all(checked)).flat() }),
  };
};
