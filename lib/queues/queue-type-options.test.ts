import { z } from "zod";
import { describe, expect, it } from "vitest";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";

import type { QueueTypeModule } from "../task-modules/queue-type-module";
import { itemQueueTypeForms } from "./queue-form-choices";
import { createQueueSchema } from "./queues.validation";
import { builtInCatalogue, withTasks } from "../task-modules/task-catalogue";

/*
 * The create-queue body takes each item queue type's id and options from the queue types of the catalogue's task modules:
 * a catalogue with a test's toy scope accepts it with its options; the catalogue it came from refuses it still.
 */
const toyScope: QueueTypeModule = {
  id: "toy_things",
  reviews: "caption",
  noun: "thing",
  listLabel: "things",
  describeReviewing: () => "each thing",
  subjectKey: "toyThing",
  keepsGuidelines: true,
  items: () => Promise.resolve({ items: [], filter: {} }),
  subject: () => Promise.resolve(null),
  options: { key: "toyThings", schema: z.object({ shade: z.enum(["red", "green"]).optional() }).default({}) },
  formChoices: () => Promise.resolve({ shades: ["red", "green"] }),
};

/** The built-in catalogue with the toy scope's module added. */
const withToyScope = () =>
  withTasks(builtInCatalogue(), { module: { id: "toy-things", pipelines: [], queueTypes: [toyScope] } });

describe("item queue types in the create-queue body", () => {
  it("a toy scope of the catalogue is a valid scope, its options are parsed under its key; the catalogue without it refuses it", () => {
    expect(createQueueSchema(builtInCatalogue()).safeParse({ name: "Toy", scope: "toy_things" }).success).toBe(false);
    const toy = withToyScope();
    const parsed = createQueueSchema(toy).parse({
      name: "Toy",
      scope: "toy_things",
      toyThings: { shade: "red" },
    }) as Record<string, unknown>;
    expect(parsed.scope).toBe("toy_things");
    expect(parsed.toyThings).toEqual({ shade: "red" });
    // Omitted: the scope's default; a value its schema refuses: a clear error on that key.
    expect(
      (createQueueSchema(toy).parse({ name: "Toy", scope: "toy_things" }) as Record<string, unknown>).toyThings,
    ).toEqual({});
    const refused = createQueueSchema(toy).safeParse({
      name: "Toy",
      scope: "toy_things",
      toyThings: { shade: "blue" },
    });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues[0]!.path).toEqual(["toyThings", "shade"]);
    expect(createQueueSchema(builtInCatalogue()).safeParse({ name: "Toy", scope: "toy_things" }).success).toBe(false);
    expect(
      (
        createQueueSchema(builtInCatalogue()).parse({
          name: "Toy",
          scope: "verdict",
          toyThings: { shade: "red" },
        }) as Record<string, unknown>
      ).toyThings,
    ).toBeUndefined();
  });

  it("the registered tasks' scopes keep the API's body keys and defaults (captions, answers)", () => {
    const parsed = createQueueSchema(builtInCatalogue()).parse({
      name: "Q",
      scope: "answers",
      answers: { format: "mc" },
    }) as Record<string, unknown>;
    expect(parsed.answers).toEqual({ format: "mc", letters: false });
    expect(parsed.captions).toEqual({});
    expect(
      createQueueSchema(builtInCatalogue()).safeParse({ name: "Q", scope: "captions", captions: { model: "" } })
        .success,
    ).toBe(false);
    expect(createQueueSchema(builtInCatalogue())).toBe(createQueueSchema(builtInCatalogue()));
  });

  it("the new-queue form's scopes list every registered item queue type with its body key and choices, a toy one too", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "Scope choices" });
    const forms = await itemQueueTypeForms(
      prisma,
      await projectAccess(prisma, owner, project.id, "project.view"),
      withToyScope(),
    );
    expect(forms.map((f) => [f.id, f.optionsKey])).toEqual([
      ["captions", "captions"],
      ["answers", "answers"],
      ["toy_things", "toyThings"],
    ]);
    expect(forms.find((f) => f.id === "toy_things")!.choices).toEqual({ shades: ["red", "green"] });
    expect(forms.find((f) => f.id === "captions")!.choices).toEqual({ models: [], types: [] });
    expect(forms.find((f) => f.id === "answers")!.choices).toEqual({ categories: [] });
  });
});
