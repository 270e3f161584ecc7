import type { TestProject } from "vitest/node";
import { launchSharedChromium, type SharedChromium } from "./chromium";
import { shareHarness } from "./harness";
import { type LoopbackTls, trustLoopbackCertificate } from "./loopback-tls";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
    /** Set by test/e2e/helpers/prism-setup.ts: the requests go through Prism's validating proxy. */
    throughPrism?: boolean;
    /**
     * Set by `npm run smoke -- --version <id>`: the value of Cloudflare-Workers-Version-Overrides
     * on every request, so that a version that takes no traffic yet answers them.
     */
    versionOverride?: string;
    /** An HTTPS certificate for localhost that the harnesses of the test files trust (./loopback-tls.ts). */
    loopbackTls: LoopbackTls;
    /** The Chromium that the browser tests connect to (./chromium.ts); none against a deployment. */
    chromium?: SharedChromium;
  }
}

/**
 * The server under test: the deployment that scripts/smoke.ts provides, else the Worker
 * in wrangler's test harness (test/e2e/helpers/harness.ts, shared with test/e2e/helpers/prism-setup.ts),
 * and beside it the run's Chromium; both closed when the run ends.
 */
export default async function setup(project: TestProject) {
  // First: the test files' processes, started after this, inherit the trust.
  project.provide("loopbackTls", trustLoopbackCertificate());
  if (project.getProvidedContext().baseUrl) return;
  const launching = launchSharedChromium();
  const { harness, release } = await shareHarness().catch(async (error: Error) => {
    await (await launching).close();
    throw error;
  });
  const browser = await launching;
  project.provide("baseUrl", harness.origin);
  project.provide("apiKey", harness.apiKey);
  project.provide("chromium", browser.shared);
  return async () => {
    await Promise.all([release(), browser.close()]);
  };
}
