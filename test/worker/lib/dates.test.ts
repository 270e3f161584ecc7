import { describe, expect, it } from "vitest";
import { DAY_MS, utcDay } from "../../../src/lib/dates";

// utcDay keeps the last day it formatted, so that a hot path formats a date once a day:
// it must still follow the clock wherever it goes (tests move it both ways).

describe("utcDay", () => {
  it("names the UTC day of an instant, and the next one from midnight on", () => {
    const midnight = Date.UTC(2030, 0, 1);
    expect(utcDay(midnight - 1)).toBe("2029-12-31");
    expect(utcDay(midnight)).toBe("2030-01-01");
    expect(utcDay(midnight + DAY_MS - 1)).toBe("2030-01-01");
  });

  it("follows a clock that goes back", () => {
    expect(utcDay(Date.UTC(2030, 5, 2, 12))).toBe("2030-06-02");
    expect(utcDay(Date.UTC(2026, 10, 25, 23, 59))).toBe("2026-11-25");
  });
});
