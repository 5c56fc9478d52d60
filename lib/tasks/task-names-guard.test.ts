import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mountedModule } from "../../testkit/testing/route-source";
import { TASK_FOLDER_IDS } from "./index";

import { BUILT_IN_DECLARATIONS } from "./registry";
import { builtInCatalogue } from "../task-modules/task-catalogue";

/*
 * Everything after the engine reads the tasks' declarations: outside a pipeline's own modules no code
 * may name a task's targets, metrics, query keys or steps. A task's own folders are the exceptions below.
 */
const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["lib", "components", "app"];
const PIPELINE_OWN = [
  /^lib\/generated\//,
  /^lib\/tasks\/[a-z0-9-]+\//,
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
  {
    what: "a hallucination step id",
    pattern: /\b(static|dynamic)_hallucination\b|["'`]inconsistency["'`]|\b(static|dynamic)_kg\b|\bvideo_summary\b/,
  },
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
        for (const { what, pattern } of FORBIDDEN)
          if (pattern.test(code)) hits.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
  });
});

/*
 * Core code asks the registry for a task's ids; it never spells one. Scans lib/ and components/ outside a
 * task's own folders, the registry files and the support code (tests, demo, stub, generated) for a string
 * literal that IS a task id, a pipeline id or a task's label-set format, read from the registry when the
 * test runs (so a newly registered task is guarded too).
 */
const CORE_FOLDERS = ["lib", "components"];
const REGISTRY_FILES = [/^lib\/tasks\/index\.ts$/, /^lib\/tasks\/registry\.ts$/, /^lib\/tasks\/modules\.ts$/];

function taskNames(): string[] {
  const formats = builtInCatalogue().modules.flatMap((task) => (task.labelSetFormats ?? []).map((format) => format.id));
  return [
    ...new Set([
      ...TASK_FOLDER_IDS,
      ...builtInCatalogue().modules.map((task) => task.id),
      ...BUILT_IN_DECLARATIONS.tasks.map((task) => task.id),
      ...Object.keys(builtInCatalogue().pipelines),
      ...formats,
    ]),
  ];
}

/** The `file: "name"` hits of a task name spelled as a whole string literal in code (comments left out). */
function taskNameLiterals(file: string, text: string, names: readonly string[]): string[] {
  const hits: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
  for (const match of code.matchAll(/(["'`])([a-z0-9_-]+)\1/g))
    if (names.includes(match[2]!)) hits.push(`${file}: "${match[2]}"`);
  return hits;
}

describe("core code spells no task id, pipeline id or label-set format", () => {
  const coreSources = () => CORE_FOLDERS.flatMap(sources).filter((f) => !REGISTRY_FILES.some((own) => own.test(f)));

  it("knows every registered name, and finds a literal one in code but not in a comment", () => {
    const names = taskNames();
    for (const name of [
      "hallucination",
      "caption_style",
      "caption_content",
      "qa_generate",
      "qa_construct",
      "t2vhalubench",
    ])
      expect(names).toContain(name);
    expect(
      taskNameLiterals(
        "x.ts",
        'const a = "qa_generate";\n// see "hallucination"\n/* "captions" */ if (p === `qa`) {}',
        names,
      ),
    ).toEqual(['x.ts: "qa_generate"', 'x.ts: "qa"']);
  });

  it("lib/ and components/ outside the task folders name no task", () => {
    const names = taskNames();
    const files = coreSources();
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((file) => taskNameLiterals(file, fs.readFileSync(path.join(ROOT, file), "utf8"), names));
    expect([...new Set(hits)]).toEqual([]);
  });
});

/*
 * Next.js finds pages and routes by their place in app/, so a task's URLs need files there: each is a thin mount
 * point (`export { default } from "@/components/tasks/<id>/pages/…"`, `export { GET } from "@/lib/tasks/<id>/routes/…"`),
 * and the page or handler is written in the task's own folder.
 */
describe("app/ holds only thin mount points for a task", () => {
  const appSources = () => sources("app");
  const namesTaskFolder = (text: string) =>
    TASK_FOLDER_IDS.some((id) => text.includes(`lib/tasks/${id}/`) || text.includes(`components/tasks/${id}/`));

  it("tells a mount point from a page", () => {
    const mounts = appSources().filter((file) => mountedModule(path.join(ROOT, file)) !== null);
    expect(mounts).toContain("app/(app)/projects/[projectId]/qa/page.tsx");
    expect(mounts).toContain("app/api/v1/runs/[runId]/captions/route.ts");
    expect(mounts).not.toContain("app/(app)/projects/[projectId]/agreement/page.tsx");
  });

  it("imports a task's folder only from files that are nothing but a re-export of it", () => {
    const files = appSources();
    expect(files.length).toBeGreaterThan(100);
    const pages = files.filter(
      (file) =>
        namesTaskFolder(fs.readFileSync(path.join(ROOT, file), "utf8")) &&
        mountedModule(path.join(ROOT, file)) === null,
    );
    expect(pages).toEqual([]);
  });

  it("spells no task id, pipeline id or label-set format in code", () => {
    const names = taskNames();
    const hits = appSources().flatMap((file) =>
      taskNameLiterals(file, fs.readFileSync(path.join(ROOT, file), "utf8"), names),
    );
    expect([...new Set(hits)]).toEqual([]);
  });
});
