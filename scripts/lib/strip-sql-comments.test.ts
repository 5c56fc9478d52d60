import { describe, expect, it } from "vitest";
import { stripSqlLineComments } from "./strip-sql-comments";

describe("stripSqlLineComments", () => {
  it("drops whole-line comments, including one with a semicolon, and keeps code and literals", () => {
    const sql = [
      "-- copied over (true → 1; false → 0) first",
      "  -- indented; too",
      "ALTER TABLE a ADD COLUMN b TEXT DEFAULT '--; not a comment';",
      "SELECT 1;",
    ].join("\n");
    expect(stripSqlLineComments(sql)).toBe(
      ["ALTER TABLE a ADD COLUMN b TEXT DEFAULT '--; not a comment';", "SELECT 1;"].join("\n"),
    );
  });
});
