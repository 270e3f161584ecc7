import type { ApiKeyRecord } from "./api-keys";
import type { Database } from "./db/client";

export type AppEnv = {
  Bindings: CloudflareBindings;
  Variables: {
    apiKey: ApiKeyRecord;
    db: Database;
  };
};
