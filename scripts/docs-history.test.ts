import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Docs and comments describe the product as it is, for a reader who never saw its history: no "session" or "stop"
 * followed by a number (how the work went lives in git log). Every tracked text file of the product is read.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const THIS_FILE = "scripts/docs-history.test.ts";
const HISTORY = /\b(session|stop)\s+\d+\b/i;

/** The lines of `text` that narrate the work's history, as `file:line: text`. */
function historyLines(file: string, text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, i) => (HISTORY.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 160)}`] : []));
}

describe("docs and comments speak of the product, not of its history", () => {
  it("finds a planted 'session N' and 'stop N', and not 'sessions' or 'stop the worker'", () => {
    expect(historyLines("a.md", "Measured in Session 22.\nAt stop 41 it failed.")).toHaveLength(2);
    expect(historyLines("a.md", "Reviewers' sessions expire. Stop the worker, then 2 stops.")).toEqual([]);
  });

  it("no tracked file under docs, lib, components, app, scripts, e2e or the README says 'session N' or 'stop N'", () => {
    const files = execFileSync(
      "git",
      ["ls-files", "--", "docs", "README.md", "lib", "components", "app", "scripts", "e2e", "clients"],
      { cwd: ROOT, encoding: "utf8" },
    )
      .split("\n")
      .filter((file) => file && file !== THIS_FILE && /\.(md|ts|tsx|mjs|js|py|css)$/.test(file));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => historyLines(file, readFileSync(path.join(ROOT, file), "utf8")));
    expect(found).toEqual([]);
  });
});
