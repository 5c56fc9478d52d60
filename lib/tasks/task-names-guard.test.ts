import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Everything after the engine reads the tasks' declarations: outside a pipeline's own modules no code
 * may name a task's targets, metrics, query keys or steps. A task's own folders are the exceptions below.
 */
const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["lib", "components", "app"];
const PIPELINE_OWN = [
  /^lib\/generated\//,
  /^lib\/tasks\/[a-z0-9-]+\//,
  /^lib\/llm-stub\//,
  /^lib\/demo\//,
  /^lib\/testing\//,
  /^components\/tasks\/[a-z0-9-]+\//,
  // Modules with nothing to do with tasks whose words look like task names: the S3 storage kind "s3",
  // ffprobe's packet flag "D", PostgreSQL's relkind 'S' in the restore script.
  /^lib\/storage\//,
  /^lib\/ops\//,
  /^lib\/browser-extraction\//,
];
/** A line that merely looks like a task name (e.g. a packet flag "D") says so with this marker. */
const NOT_A_TASK_NAME = "not a task name";
const FORBIDDEN: { what: string; pattern: RegExp }[] = [
  { what: "a hallucination category code", pattern: /["'`][sd]\d{1,2}["'`]/ },
  { what: "an S/D/I metric named in code", pattern: /["'`][SDI]["'`]|\b[SDI]\s*:|\.(S|D|I)\b|\bscore[SDI]\b/ },
  { what: "an S/D/I/overall query key", pattern: /\b[sdi]M(in|ax)\b|\boverallM(in|ax)\b/ },
  { what: "a hallucination step id", pattern: /\b(static|dynamic)_hallucination\b|["'`]inconsistency["'`]|\b(static|dynamic)_kg\b|\bvideo_summary\b/ },
];

function sources(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(folder, f))
    .filter((f) => !PIPELINE_OWN.some((own) => own.test(f)));
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
        const code = line
          .replace(/\/\/.*$/, "")
          .replace(/^\s*\*.*$/, "")
          .replace(/\/\*.*?\*\//g, "");
        if (line.includes(NOT_A_TASK_NAME)) return;
        for (const { what, pattern } of FORBIDDEN) if (pattern.test(code)) hits.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
