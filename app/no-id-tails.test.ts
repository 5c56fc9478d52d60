import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * People tell runs, videos and queues apart by names (lib/runs/run-name.ts, file names), never by the
 * tail of an id ("run 1ovvj3"). No page or component cuts an id to show it.
 */
const ROOT = path.resolve(__dirname, "..");

function sources(): string[] {
  return ["app", "components"].flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => path.join(dir, file)),
  );
}

describe("no id tails on screen", () => {
  it("scans the pages and components (so an empty scan cannot pass)", () => {
    expect(sources().length).toBeGreaterThan(50);
  });

  it("no page or component shows a slice of an id", () => {
    const hits: string[] = [];
    for (const file of sources()) {
      fs.readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          // `run.id.slice(-6)`, `r.runId.slice(-6)`, `videoId.substring(0, 8)`…
          if (/\b(id|[a-z]\w*Id)\s*\.\s*(slice|substring|substr)\s*\(/.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
          // "run " followed by an interpolated id
          if (/run \{[^}]*\bid\b[^}]*\}|run \$\{[^}]*\bid\b[^}]*\}/i.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(hits).toEqual([]);
  });
});
