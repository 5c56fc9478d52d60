import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TASK_FOLDER_IDS } from "../tasks/index";

import { BUILT_IN_DECLARATIONS } from "../tasks/registry";
import { itemSetKinds } from "./item-sets";
import { builtInCatalogue } from "../task-modules/task-catalogue";

/*
 * Issue 24: the core's items, label sets, import, frames and the pending frames' list read the tasks from the
 * registry. Their code (comments aside: an example there is fine) quotes no task's id, pipeline id, item set
 * kind, item kind or label file format, each as the registry gives them, so the list follows the tasks.
 */
const ROOT = path.resolve(__dirname, "../..");
const CORE = [
  "lib/items",
  "lib/label-sets",
  "lib/import",
  "lib/frames",
  "components/import",
  "components/label-sets",
  "components/items",
  "lib/videos/uniform-frame-sets.ts",
];

function sources(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (fs.statSync(full).isFile()) return [entry];
  return fs
    .readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(entry, f));
}

function taskNames(): string[] {
  const kinds = itemSetKinds(builtInCatalogue());
  return [
    ...new Set([
      ...TASK_FOLDER_IDS,
      ...Object.keys(builtInCatalogue().pipelines),
      ...kinds.flatMap((kind) => [kind.id, kind.outputsKind, kind.itemList?.itemKind, kind.uniformFrames?.itemKind]),
      ...builtInCatalogue().modules.flatMap((task) => (task.labelSetFormats ?? []).map((format) => format.id)),
      ...BUILT_IN_DECLARATIONS.folders.flatMap((folder) => (folder.labelSetFormats ?? []).map((format) => format.id)),
    ]),
  ].filter((name): name is string => !!name);
}

describe("the core's items, label sets, import and frames name no task", () => {
  it("knows the names to look for (so an empty list cannot pass)", () => {
    expect(taskNames()).toEqual(
      expect.arrayContaining([
        "hallucination",
        "caption_style",
        "qa",
        "questions",
        "caption",
        "question",
        "t2vhalubench",
      ]),
    );
    expect(CORE.flatMap(sources).length).toBeGreaterThan(20);
  });

  it("quotes none of them in code", () => {
    const names = taskNames();
    const hits: string[] = [];
    for (const file of CORE.flatMap(sources)) {
      fs.readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          // A line that merely looks like one (VBench's "caption" field) says so, as in task-names-guard.test.ts.
          if (line.includes("not a task name")) return;
          const code = line
            .replace(/\/\/.*$/, "")
            .replace(/^\s*\*.*$/, "")
            .replace(/^\s*\/\*\*.*$/, "")
            .replace(/\/\*.*?\*\//g, "");
          for (const name of names)
            if (new RegExp(`["'\`]${name}["'\`]`).test(code)) hits.push(`${file}:${i + 1}: "${name}": ${line.trim()}`);
        });
    }
    expect(hits).toEqual([]);
  });
});
