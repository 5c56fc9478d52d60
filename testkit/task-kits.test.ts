/**
 * The kit's generated per-task map (testkit/generated/task-kits.ts): scripts/generate-task-registry.mjs lists each
 * task folder that has a kit.ts, in TASK_FOLDER_IDS order, and leaves a folder without one out.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TASK_FOLDER_IDS } from "../lib/tasks/index";
import { TASK_KITS } from "./task-kits";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("the kit's per-task map", () => {
  it("holds each folder's kit under its own id, in TASK_FOLDER_IDS order", () => {
    const withKit = TASK_FOLDER_IDS.filter((id) => fs.existsSync(path.join(ROOT, `lib/tasks/${id}/kit.ts`)));
    expect(withKit.length).toBeGreaterThan(1);
    expect(TASK_KITS.map((kit) => kit.id)).toEqual(withKit);
  });

  it("is written for the folders that have a kit.ts only", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "task-kits-"));
    fs.mkdirSync(path.join(dir, "scripts"));
    fs.copyFileSync(
      path.join(ROOT, "scripts/generate-task-registry.mjs"),
      path.join(dir, "scripts/generate-task-registry.mjs"),
    );
    for (const id of ["with-kit", "without-kit"]) fs.mkdirSync(path.join(dir, "lib/tasks", id), { recursive: true });
    fs.writeFileSync(
      path.join(dir, "lib/tasks/index.ts"),
      'export const TASK_FOLDER_IDS = ["without-kit", "with-kit"] as const;\n',
    );
    fs.writeFileSync(path.join(dir, "lib/tasks/with-kit/kit.ts"), 'export default { id: "with-kit" };\n');
    const run = spawnSync(process.execPath, ["scripts/generate-task-registry.mjs"], { cwd: dir, encoding: "utf8" });
    expect(run.stderr).toBe("");
    const map = fs.readFileSync(path.join(dir, "testkit/generated/task-kits.ts"), "utf8");
    expect(map).toContain('import withKitKit from "../../lib/tasks/with-kit/kit";');
    expect(map).not.toContain("without-kit");
    // The product's maps still list every folder.
    expect(fs.readFileSync(path.join(dir, "lib/generated/tasks/modules.ts"), "utf8")).toContain("without-kit/module");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
