import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED_TASK_DECLARATIONS } from "../generated/tasks/declarations";
import { GENERATED_TASK_MODULES } from "../generated/tasks/modules";
import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";
import { TASK_FOLDER_IDS } from "./index";

const ROOT = path.resolve(__dirname, "../..");

describe("the task registry's generated import maps", () => {
  it("are what scripts/generate-task-registry.mjs writes from TASK_FOLDER_IDS now", () => {
    const check = spawnSync(process.execPath, ["scripts/generate-task-registry.mjs", "--check"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("hold each listed folder's module, declarations and views, in TASK_FOLDER_IDS's order, each under its own id", () => {
    expect(GENERATED_TASK_MODULES.map((m) => m.id)).toEqual([...TASK_FOLDER_IDS]);
    expect(GENERATED_TASK_DECLARATIONS.map((d) => d.id)).toEqual([...TASK_FOLDER_IDS]);
    expect(GENERATED_TASK_VIEWS.map((v) => v.id)).toEqual([...TASK_FOLDER_IDS]);
  });

  it("pair each folder's pipelines with its declarations", () => {
    for (const [i, module] of GENERATED_TASK_MODULES.entries()) {
      expect(module.pipelines.map((p) => p.task)).toEqual(GENERATED_TASK_DECLARATIONS[i]!.tasks);
    }
  });
});
