import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmScript } from "../../e2e/helpers/npm-script";
import { ACCOUNT_ID, type Account, servingBindings, startAccount } from "./cloudflare-stand-in/account";

// `npm run deploy:staging` as an operator runs it against a new account, with the real
// wrangler pointed at a stand-in for Cloudflare's API (./cloudflare-account.ts): the committed
// configurations give staging's D1 database and KV namespaces no id, so the first deploy
// must create each once, and every deploy after must bind the same ones.

let stop: () => Promise<void>;
let account: Account;
let deploy: (env?: Record<string, string>) => ReturnType<typeof npmScript>;
let credentials: Record<string, string>;
beforeAll(async () => {
  const started = await startAccount();
  ({ account } = started);
  stop = started.close;
  credentials = {
    CLOUDFLARE_API_BASE_URL: started.baseUrl,
    CLOUDFLARE_API_TOKEN: "stand-in-token",
    CLOUDFLARE_ACCOUNT_ID: ACCOUNT_ID,
    CI: "true",
  };
  deploy = (env = {}) => npmScript("deploy:staging", [], { ...credentials, ...env });
});
afterAll(() => stop());

const CURSOR_SECRET = "a-cursor-secret-of-at-least-32-bytes";

/** What each Worker's serving version binds, by binding name: a namespace's or database's id, or the service. */
const bound = (worker: string) =>
  Object.fromEntries(
    servingBindings(account.workers.get(worker))
      .filter(({ type }) => ["kv_namespace", "d1", "service"].includes(type))
      .map(({ name, namespace_id, id, service }) => [name, namespace_id ?? id ?? service]),
  );

describe("the first deploy of an environment whose configuration has no ids", () => {
  it("creates the database and both namespaces once, and binds both Workers to one API_KEYS; a failed step is finished by running again", async () => {
    // The API's upload fails after the sign-in Worker and every resource exist.
    account.failUploadsOf.add("petstore-staging");
    const failed = await deploy({ CURSOR_SECRET });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/\[deploy\] wrangler deploy --config \S+ --env staging .*failed\./);
    // It says what it did before the failure: the database, its migrations, the sign-in Worker.
    const said = failed.stderr.split("\n").find((line) => line.includes("petstore-staging;")) ?? "";
    for (const done of [/petstore-staging/, /migrations of DB/, /sign-in Worker/]) expect(said).toMatch(done);
    expect(said).not.toMatch(/the API\b/);
    expect(account.workers.has("petstore-staging")).toBe(false);

    // The run that finishes it deploys the sign-in Worker again, which keeps what it was bound to.
    const first = await deploy({ CURSOR_SECRET });
    expect(first.code, first.stderr).toBe(0);
    expect(account.workers.get("petstore-auth-staging")?.versions).toHaveLength(2);
    expect(first.stdout).not.toContain("created petstore-staging");
    expect([...account.databases.values()].map(({ name }) => name)).toEqual(["petstore-staging"]);
    const [database] = account.databases.values();
    expect(database?.db.prepare("SELECT count(*) AS pets FROM pets").get()).toEqual({ pets: 0 });
    expect([...account.namespaces.values()].toSorted()).toEqual([
      "petstore-auth-staging-api-keys",
      "petstore-auth-staging-oauth-kv",
    ]);
    const [databaseId] = account.databases.keys();
    const namespaceOf = (title: string) => [...account.namespaces].find(([, named]) => named === title)?.[0];
    expect(bound("petstore-auth-staging")).toEqual({
      API_KEYS: namespaceOf("petstore-auth-staging-api-keys"),
      OAUTH_KV: namespaceOf("petstore-auth-staging-oauth-kv"),
    });
    expect(bound("petstore-staging")).toEqual({
      API_KEYS: namespaceOf("petstore-auth-staging-api-keys"),
      DB: databaseId,
      AUTH: "petstore-auth-staging",
    });
    expect(account.unknown).toEqual([]);
  });

  it("a later deploy, without the secret (the Worker has it), creates nothing and binds the same", async () => {
    const before = { api: bound("petstore-staging"), signIn: bound("petstore-auth-staging") };
    const [namespaces, databases] = [account.namespaces.size, account.databases.size];
    const later = await deploy();
    expect(later.code, later.stderr).toBe(0);
    expect(account.workers.get("petstore-staging")?.versions).toHaveLength(2);
    expect(bound("petstore-staging")).toEqual(before.api);
    expect(bound("petstore-auth-staging")).toEqual(before.signIn);
    expect([account.namespaces.size, account.databases.size]).toEqual([namespaces, databases]);
    expect(account.unknown).toEqual([]);
  });

  it("then issues a key into the namespace both Workers read, found through the deployed API", async () => {
    const created = await npmScript("key:create", ["smoke", "--env", "staging", "--remote"], credentials);
    expect(created.code, created.stderr).toBe(0);
    const stored = [...account.values.keys()].map((key) => key.split("/")[0]);
    expect(stored).toEqual([bound("petstore-auth-staging").API_KEYS]);
    expect(account.unknown).toEqual([]);
  });
});
