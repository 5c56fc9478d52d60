import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * `npm run unused` (knip, knip.json) finds no unused file, export, type or dependency: an export nothing imports is
 * dead code that still has to be read and kept compiling. The issues are listed by file so a failure names them.
 */
const ROOT = path.resolve(import.meta.dirname, "..");

interface KnipIssue {
  file: string;
  [kind: string]: unknown;
}

describe("knip", () => {
  it("reports no unused files, exports, types or dependencies", () => {
    const knip = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules/knip/bin/knip.js"), "--no-progress", "--reporter", "json"],
      { cwd: ROOT, encoding: "utf8", timeout: 180_000 },
    );
    expect(knip.error).toBeUndefined();
    const report = JSON.parse(knip.stdout) as { issues: KnipIssue[] };
    const found = report.issues.flatMap((issue) =>
      Object.entries(issue)
        .filter(([kind, value]) => kind !== "file" && Array.isArray(value) && value.length > 0)
        .flatMap(([kind, value]) =>
          (value as { name: string }[]).map((entry) => `${issue.file}: ${kind} ${entry.name}`),
        ),
    );
    expect(found).toEqual([]);
    expect(knip.status).toBe(0);
  }, 240_000);
});
