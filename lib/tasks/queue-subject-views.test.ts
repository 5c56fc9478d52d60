import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";
import { TASK_FOLDER_IDS } from "./index";
import { builtInCatalogue } from "../task-modules/task-catalogue";

const ROOT = path.resolve(__dirname, "../..");

describe("an item queue's subject on the review screen", () => {
  it("is shown by the view its own task folder registers under the scope's subject key", () => {
    const scopes = builtInCatalogue().modules.flatMap((task) =>
      (task.queueTypes ?? []).map((scope) => ({ task: task.id, scope })),
    );
    expect(scopes.map(({ scope }) => scope.subjectKey).sort()).toEqual(["answer", "caption"]);
    for (const { task, scope } of scopes) {
      const views = GENERATED_TASK_VIEWS.find((v) => v.id === task);
      expect(views?.subjectViews?.[scope.subjectKey], `${task}: ${scope.subjectKey}`).toBeTypeOf("function");
    }
  });

  it("comes from the registry: the queue screens import no task folder's components", () => {
    const folder = path.join(ROOT, "components/queues");
    const hits = fs
      .readdirSync(folder)
      // The review screen and its parts (reducer, hooks, rows): every source file of the folder.
      .filter((file) => /\.tsx?$/.test(file) && !file.includes(".test."))
      .flatMap((file) =>
        TASK_FOLDER_IDS.filter((id) =>
          fs.readFileSync(path.join(folder, file), "utf8").includes(`components/tasks/${id}/`),
        ).map((id) => `${file} imports components/tasks/${id}/`),
      );
    expect(hits).toEqual([]);
  });
});
