import { existsSync } from "node:fs";

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
