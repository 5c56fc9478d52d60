import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../testing/fixtures";
import { registerTaskModule } from "../task-modules/installed-task-modules";
import type { QueueScopeModule } from "./queue-scope";
import { itemScopeForms } from "./queue-form-choices";
import { createQueueSchema } from "./queues.validation";

/*
 * The create-queue body takes each registered item scope's id and options from the task folder's queue scope, read
 * at call time: a scope registered by a test is accepted with its options, and refused again once taken out.
 */
const toyScope: QueueScopeModule = {
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

let undo: (() => void) | null = null;
afterEach(() => {
  undo?.();
  undo = null;
});

describe("item queue scopes in the create-queue body", () => {
  it("a registered toy scope is a valid scope, its options are parsed under its key, and it is refused once taken out", () => {
    expect(createQueueSchema().safeParse({ name: "Toy", scope: "toy_things" }).success).toBe(false);
    undo = registerTaskModule({ id: "toy-things", pipelines: [], queueScopes: [toyScope] });
    const parsed = createQueueSchema().parse({
      name: "Toy",
      scope: "toy_things",
      toyThings: { shade: "red" },
    }) as Record<string, unknown>;
    expect(parsed.scope).toBe("toy_things");
    expect(parsed.toyThings).toEqual({ shade: "red" });
    // Omitted: the scope's default; a value its schema refuses: a clear error on that key.
    expect(
      (createQueueSchema().parse({ name: "Toy", scope: "toy_things" }) as Record<string, unknown>).toyThings,
    ).toEqual({});
    const refused = createQueueSchema().safeParse({ name: "Toy", scope: "toy_things", toyThings: { shade: "blue" } });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues[0]!.path).toEqual(["toyThings", "shade"]);
    undo();
    undo = null;
    expect(createQueueSchema().safeParse({ name: "Toy", scope: "toy_things" }).success).toBe(false);
    expect(
      (
        createQueueSchema().parse({ name: "Toy", scope: "verdict", toyThings: { shade: "red" } }) as Record<
          string,
          unknown
        >
      ).toyThings,
    ).toBeUndefined();
  });

  it("the registered tasks' scopes keep the API's body keys and defaults (captions, answers)", () => {
    const parsed = createQueueSchema().parse({ name: "Q", scope: "answers", answers: { format: "mc" } }) as Record<
      string,
      unknown
    >;
    expect(parsed.answers).toEqual({ format: "mc", letters: false });
    expect(parsed.captions).toEqual({});
    expect(createQueueSchema().safeParse({ name: "Q", scope: "captions", captions: { model: "" } }).success).toBe(
      false,
    );
    expect(createQueueSchema()).toBe(createQueueSchema());
  });

  it("the new-queue form's scopes list every registered item scope with its body key and choices, a toy one too", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "Scope choices" });
    undo = registerTaskModule({ id: "toy-things", pipelines: [], queueScopes: [toyScope] });
    const forms = await itemScopeForms(prisma, owner, project.id);
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
