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

/** Saving an edit keeps what the form does not show: an alignment's tuned threshold must survive a hand edit. */
describe("the rubric form's round trip of fields it does not edit", () => {
  const aligned = rubricDefinitionSchema.parse({
    name: "Aligned",
    frames: { mode: "each_key_frame" },
    criteria: [
      {
        id: "quality",
        name: "Quality",
        definition: "How good.",
        type: "numeric",
        min: 1,
        max: 5,
        step: 1,
        positiveAtLeast: 4,
        unstableAt: 0.8,
      },
      {
        id: "motion",
        name: "Motion",
        definition: "How smooth.",
        type: "categorical",
        labels: [{ label: "jerky" }, { label: "smooth" }],
        positiveLabel: "smooth",
      },
      { id: "text", name: "Text", definition: "Garbled text.", type: "boolean", positiveLabel: "garbled" },
    ],
    prompt: "{{frames}} {{criteria}}",
  });

  it("keeps positiveAtLeast, positiveLabel and unstableAt through draftOf and definitionInputOf", () => {
    const again = rubricDefinitionSchema.parse(definitionInputOf(draftOf(aligned)));
    expect(again.criteria).toEqual(aligned.criteria);
  });

  it("drops them once the criterion's type changes, so a numeric threshold never lands on a boolean", () => {
    const draft = draftOf(aligned);
    draft.criteria[0] = { ...draft.criteria[0]!, type: "boolean" };
    const criterion = definitionInputOf(draft).criteria[0] as Record<string, unknown>;
    expect(criterion.positiveAtLeast).toBeUndefined();
    expect(criterion.unstableAt).toBeUndefined();
    expect(rubricDefinitionSchema.safeParse(definitionInputOf(draft)).success).toBe(true);
  });
});

/** A criterion that asks where it fails keeps `localize` through an edit in the form, and the form can set it. */
describe("the rubric form's localize", () => {
  const localizing = rubricDefinitionSchema.parse({
    name: "Where",
    frames: { mode: "uniform", count: 8 },
    criteria: [
      { id: "hands", name: "Hands", definition: "Malformed hands.", type: "boolean", localize: true },
      { id: "quality", name: "Quality", definition: "How good.", type: "numeric", min: 0, max: 10, step: 1 },
    ],
    prompt: "{{frames}} {{criteria}}",
  });

  it("round-trips localize, and leaves it out of a criterion that does not ask where", () => {
    const draft = draftOf(localizing);
    expect(draft.criteria.map((c) => c.localize)).toEqual([true, false]);
    const again = definitionInputOf(draft).criteria as Record<string, unknown>[];
    expect(again.map((c) => c.localize)).toEqual([true, undefined]);
    expect(rubricDefinitionSchema.parse(definitionInputOf(draft)).criteria).toEqual(localizing.criteria);
    draft.criteria[1] = { ...draft.criteria[1]!, localize: true };
    expect((definitionInputOf(draft).criteria[1] as Record<string, unknown>).localize).toBe(true);
  });
});

/** The Rubric tasks form keeps whether a video run sends the frames as a video or as stills. */
describe("the rubric form's frames input", () => {
  const base = {
    name: "Stills",
    criteria: [{ id: "ok", name: "OK", definition: "Fine.", type: "boolean" }],
    prompt: "{{frames}} {{criteria}}",
  };
  it("round-trips input images, and leaves the default (video) out of the definition", () => {
    const stills = rubricDefinitionSchema.parse({ ...base, frames: { mode: "key_frames", input: "images" } });
    expect(draftOf(stills).framesInput).toBe("images");
    expect(definitionInputOf(draftOf(stills)).frames).toEqual({ mode: "key_frames", input: "images" });
    const video = rubricDefinitionSchema.parse({ ...base, frames: { mode: "uniform", count: 8, input: "video" } });
    expect(draftOf(video).framesInput).toBe("video");
    expect(definitionInputOf(draftOf(video)).frames).toEqual({ mode: "uniform", count: 8 });
    expect(definitionInputOf(emptyDraft()).frames).toEqual({ mode: "uniform", count: 8 });
  });

  it("round-trips a criterion's own input, and leaves a criterion that follows the rubric without one", () => {
    const mixed = rubricDefinitionSchema.parse({
      ...base,
      frames: { mode: "key_frames" },
      criteria: [
        ...base.criteria,
        { id: "hands", name: "Hands", definition: "Drawn well.", type: "boolean", input: "images" },
      ],
    });
    const draft = draftOf(mixed);
    expect(draft.criteria.map((c) => c.input)).toEqual(["", "images"]);
    const again = definitionInputOf(draft).criteria as Record<string, unknown>[];
    expect(again.map((c) => c.input)).toEqual([undefined, "images"]);
    expect(rubricDefinitionSchema.parse(definitionInputOf(draft)).criteria).toEqual(mixed.criteria);
  });
});
