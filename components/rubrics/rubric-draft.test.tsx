import { describe, expect, it } from "vitest";
import { rubricDefinitionSchema } from "@/lib/rubrics/rubric-definition";
import { definitionInputOf, draftOf, emptyDraft } from "./rubric-draft";

/** The Rubric tasks form keeps an item subject: editing a rubric over items never turns it into one over videos. */
describe("the rubric form's subject", () => {
  const items = rubricDefinitionSchema.parse({
    name: "Captions",
    subject: {
      kind: "item",
      fields: [
        { id: "text", label: "caption" },
        { id: "reference", label: "reference caption", required: false },
      ],
    },
    frames: { mode: "uniform", count: 4 },
    criteria: [{ id: "ok", name: "OK", definition: "Fine.", type: "boolean" }],
    prompt: "{{frames}} {{item.text}} {{criteria}}",
  });

  it("round-trips an item subject's fields with their labels and optional marks, and a video subject as the video", () => {
    const draft = draftOf(items);
    expect([draft.subjectKind, draft.itemFields]).toEqual(["item", "text, reference?"]);
    expect(definitionInputOf(draft).subject).toEqual(items.subject);
    expect(definitionInputOf(emptyDraft()).subject).toEqual({ kind: "video" });
  });

  it("reads typed fields: a new one is labelled with its id, and '?' makes it optional", () => {
    const draft = { ...draftOf(items), itemFields: "text, notes?, score" };
    expect(definitionInputOf(draft).subject).toEqual({
      kind: "item",
      fields: [
        { id: "text", label: "caption", required: true },
        { id: "notes", label: "notes", required: false },
        { id: "score", label: "score", required: true },
      ],
    });
  });
});
