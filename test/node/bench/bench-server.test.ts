import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkNoLocalTraces } from "../../../scripts/lib/dev-server";

// The bench runs wrangler dev without its local trace collector (bench/bench-server.ts); a
// run whose server made the collector's store anyway stops rather than measure it.
describe("the bench's check that wrangler dev stores no traces", () => {
  const persistTo = mkdtempSync(path.join(tmpdir(), "bench-server-"));
  afterEach(() => rmSync(path.join(persistTo, "v3"), { recursive: true, force: true }));

  it("passes a state without the collector's store", () => {
    mkdirSync(path.join(persistTo, "v3", "d1"), { recursive: true });
    expect(() => checkNoLocalTraces(persistTo)).not.toThrow();
  });

  it("stops a run whose server started the collector", () => {
    mkdirSync(path.join(persistTo, "v3", "observability"), { recursive: true });
    expect(() => checkNoLocalTraces(persistTo)).toThrow(/local trace collector .* X_LOCAL_OBSERVABILITY is false/);
  });
});
