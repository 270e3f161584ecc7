// Whether the Worker that a deploy without CURSOR_SECRET in its environment updates has the
// secret already: wrangler would refuse a Worker without it only after the migrations.
import { MIN_SECRET_BYTES } from "../../src/core/cursor";
import { step } from "./rollout-actions";
import { REQUIRED_SECRET } from "./versions";
import { wrangler } from "./wrangler";

/** What wrangler says when it has no credentials (no login, no CLOUDFLARE_API_TOKEN) or Cloudflare refuses them. */
const NOT_AUTHENTICATED = /CLOUDFLARE_API_TOKEN|not (logged in|authenticated)|wrangler login|Authentication error/i;

/** Throws, saying how to give it one, unless the `env` Worker has CURSOR_SECRET. */
export const checkDeployedSecret = (env: string) => {
  const setItFirst =
    `Give it one, at least ${MIN_SECRET_BYTES} bytes, with this deploy:\n` +
    `  ${REQUIRED_SECRET}="$(openssl rand -base64 32)" npm run deploy:${env}`;
  step(`whether the ${env} Worker has the secret ${REQUIRED_SECRET}`);
  let secrets: { name: string }[];
  try {
    secrets = JSON.parse(wrangler(["secret", "list", "--env", env]));
  } catch (error) {
    const { message } = error as Error;
    if (NOT_AUTHENTICATED.test(message)) {
      throw new Error(
        `wrangler has no credentials for Cloudflare, so nothing was deployed: run npx wrangler login, or set CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID.\n${message}`,
      );
    }
    throw new Error(`wrangler could not list the ${env} Worker's secrets, so nothing was deployed:\n${message}`);
  }
  if (!secrets.some(({ name }) => name === REQUIRED_SECRET)) {
    throw new Error(`The ${env} Worker has no ${REQUIRED_SECRET}. ${setItFirst}`);
  }
};
