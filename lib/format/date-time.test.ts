import { describe, expect, it } from "vitest";
import { runDate } from "../run-records/run-name";
import { formatDateTime } from "./date-time";

describe("the judge pages' one date format", () => {
  it("writes a moment as day, month, year and time in UTC, the same for runs and probes", () => {
    expect(formatDateTime("2026-11-28T07:05:09Z")).toBe("28 Nov 2026 07:05");
    expect(formatDateTime(new Date(Date.UTC(2026, 0, 5, 3, 7, 9)), { seconds: true })).toBe("5 Jan 2026 03:07:09");
    expect(runDate("2026-11-28T07:05:09Z")).toBe(formatDateTime("2026-11-28T07:05:09Z"));
    expect(formatDateTime("not a date")).toBe("not a date");
  });
});
