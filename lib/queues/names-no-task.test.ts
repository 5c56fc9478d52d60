import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TASK_FOLDER_IDS } from "../tasks/index";
import { builtInCatalogue } from "../task-modules/task-catalogue";

const here = path.resolve(import.meta.dirname);

describe("lib/queues", () => {
  it("names no task: no task folder's module, pipeline id or queue type id; those come from the registry", () => {
    const scopeIds = builtInCatalogue().modules.flatMap((task) => (task.queueTypes ?? []).map((scope) => scope.id));
    expect(scopeIds.length).toBeGreaterThan(0);
    const names = [...TASK_FOLDER_IDS, ...Object.keys(builtInCatalogue().pipelines), ...scopeIds];
    const files = fs.readdirSync(here).filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"));
    const found: string[] = [];
    for (const file of files) {
      const source = fs.readFileSync(path.join(here, file), "utf8");
      for (const id of TASK_FOLDER_IDS)
        if (source.includes(`tasks/${id}/`)) found.push(`${file} imports lib/tasks/${id}/`);
      for (const name of names)
        if (new RegExp(`["'\`]${name}["'\`]`).test(source)) found.push(`${file} names "${name}"`);
    }
    expect(found).toEqual([]);
  });
});
