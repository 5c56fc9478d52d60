/**
 * The Import page's task sections come from the registry (TaskViews.importPanels): the captions and the
 * questions sections in that order, and a dropped file goes to the first section that claims it, as
 * components/import/import-panel.tsx routes it.
 */
import { describe, expect, it } from "vitest";
import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";
import { jsonlBytes } from "../../testkit/testing/item-files";
import { smallReferenceSet } from "../../testkit/tasks/captions/caption-fixtures";
import { questionSetBytes } from "../../testkit/tasks/qa/qa-fixtures";

const panels = () => GENERATED_TASK_VIEWS.flatMap((views) => views.importPanels ?? []);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The panel a file goes to, by the import panel's rule, and its claim. */
function route(relativePath: string, head: string) {
  for (const panel of panels().filter((p) => p.fileNames.test(relativePath))) {
    const claim = panel.claim(relativePath, head.slice(0, panel.sniffBytes));
    if (claim !== null) return { panel: panel.id, claim };
  }
  return null;
}

describe("the Import page's task sections", () => {
  it("are the registered tasks' panels, captions before questions", () => {
    expect(panels().map((panel) => panel.id)).toEqual(["captions", "questions"]);
  });

  it("each claim their own files, and no panel claims another kind of file", () => {
    expect(route("refs.jsonl", text(jsonlBytes(...smallReferenceSet())))).toEqual({
      panel: "captions",
      claim: "caption_reference",
    });
    expect(route("model-a.jsonl", text(jsonlBytes({ id: 1, output: "A ball." })))).toEqual({
      panel: "captions",
      claim: "caption_outputs",
    });
    expect(route("questions.jsonl", text(questionSetBytes()))).toEqual({ panel: "questions", claim: "question_set" });
    expect(
      route("questions.json", JSON.stringify(JSON.parse(`[${text(questionSetBytes()).trim().split("\n").join(",")}]`))),
    ).toEqual({ panel: "questions", claim: "question_set" });
    expect(route("notes.txt", "hello")).toBeNull();
    expect(route("table.csv", "a,b\n1,2\n")).toBeNull();
  });
});
