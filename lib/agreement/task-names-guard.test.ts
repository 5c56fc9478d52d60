import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The agreement report, queues and reviews read every task's declaration; none of them may name a
 * task's targets, metrics or steps (those live in lib/judge/pipelines/). Extend FOLDERS as more of
 * the app becomes generic.
 */
const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["lib/agreement", "lib/queues", "lib/reviews", "lib/visibility", "components/agreement"];
const FORBIDDEN: { what: string; pattern: RegExp }[] = [
  { what: "a hallucination category code", pattern: /["'`][sd]\d{1,2}["'`]/ },
  { what: "an S/D/I metric named in code", pattern: /["'`][SDI]["'`]|\b[SDI]\s*:|\.(S|D|I)\b|\bscore[SDI]\b/ },
  { what: "an S/D/I/overall query key", pattern: /\b[sdi]M(in|ax)\b|\boverallM(in|ax)\b/ },
  { what: "a hallucination step id", pattern: /\b(static|dynamic)_hallucination\b|["'`]inconsistency["'`]/ },
];

function sources(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(folder, f));
}

describe("generic code names no task's targets", () => {
  it("finds its folders' sources (so an empty scan cannot pass)", () => {
    for (const folder of FOLDERS) expect(sources(folder).length).toBeGreaterThan(0);
  });

  it.each(FOLDERS)("%s names no category, metric, query key or step of a task", (folder) => {
    const hits: string[] = [];
    for (const file of sources(folder)) {
      const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        // Comments may explain with examples; code may not depend on them.
        const code = line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "").replace(/\/\*.*?\*\//g, "");
        for (const { what, pattern } of FORBIDDEN) if (pattern.test(code)) hits.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
