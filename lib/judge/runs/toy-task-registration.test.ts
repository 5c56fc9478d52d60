/**
 * A task is its folder: a toy task added to a catalogue of the test's own (its module and its declarations, as a
 * folder's module.ts and declarations.ts give them) is taken by run validation and by createRun, offered by the
 * Judge page's run form, and linked from the project's navigation, with no other edit. The shipped tasks keep what
 * they had before these lists read the catalogue.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { projectNav, projectNavItems } from "../../../testkit/testing/project-nav-items";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";

import type { TaskDeclaration } from "../../task-modules/task-declaration";
import { createRunSchema, pipelineIdSchema, pipelineIds } from "./run-input.validation";
import type { RegisteredPipeline } from "../../task-modules/pipeline-types";
import { runFormPipelines } from "./run-form";
import { createRun } from "./runs";
import { builtInCatalogue, withTasks } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

const yesNo = {
  kind: "categorical",
  values: [
    { value: 1, label: "yes" },
    { value: 0, label: "no" },
  ],
} as const;
const toyTask: TaskDeclaration = {
  id: "toy_forms",
  label: "Toy forms",
  subject: "caption",
  targets: [
    {
      id: "ok",
      label: "OK",
      definition: "The thing is OK.",
      scale: yesNo,
      level: "nominal",
      higherIsBetter: true,
      scope: "item",
      positive: { op: "==", value: 1, label: "ok" },
    },
  ],
  metrics: [],
  groupings: [],
};
const toySettingsSchema = z.object({ level: z.number().int().min(1).max(5).default(2) });
const toyPipeline: RegisteredPipeline = {
  id: "toy_forms",
  label: "Toy forms",
  task: toyTask,
  steps: [],
  summarize: () => ({}),
  metricValues: () => ({}),
  items: { kind: "toy_thing", setNoun: "toy thing", setField: "toyThingSetId" },
  settingsSchema: toySettingsSchema,
};

const toy = withTasks(builtInCatalogue(), {
  module: { id: "toy-forms", pipelines: [toyPipeline] },
  declarations: {
    id: "toy-forms",
    tasks: [toyTask],
    runForm: { toy_forms: { label: "toy forms (test only)", itemNoun: "toy thing" } },
    navLinks: [
      { id: "toy-forms", label: "Toys", path: "/toys", action: "project.view", after: "judge" },
      { id: "toy-forms-owners", label: "Toy admin", path: "/toys/admin", action: "videos.import", after: "nowhere" },
    ],
  },
});
let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

describe("run validation reads the catalogue", () => {
  it("accepts a pipeline of the catalogue, and refuses an unknown one with z.enum's message listing the catalogue's ids", () => {
    expect(pipelineIds(toy)).toContain("toy_forms");
    expect(createRunSchema(toy).parse({ pipeline: "toy_forms", endpointId: "e1" })).toMatchObject({
      pipeline: "toy_forms",
      endpointId: "e1",
    });
    expect(pipelineIdSchema(toy).parse("toy_forms")).toBe("toy_forms");

    const refused = createRunSchema(toy).safeParse({ pipeline: "nope", endpointId: "e1" });
    expect(refused.success).toBe(false);
    const listed = Object.keys(toy.pipelines)
      .map((id) => JSON.stringify(id))
      .join("|");
    expect(refused.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["pipeline", `Invalid option: expected one of ${listed}`],
    ]);
    expect(listed).toContain('"hallucination"|"caption_style"|"caption_content"|"qa"|"qa_generate"|"qa_construct"');
    // A missing or non-string pipeline reads the same as before too.
    expect(createRunSchema(toy).safeParse({ endpointId: "e1" }).error!.issues[0]!.message).toBe(
      `Invalid option: expected one of ${listed}`,
    );
    expect(createRunSchema(toy).safeParse({ pipeline: 3, endpointId: "e1" }).error!.issues[0]!.message).toBe(
      `Invalid option: expected one of ${listed}`,
    );
  });

  it("takes one itemSetId, with each item pipeline's old field name as an alias", () => {
    const parse = (body: Record<string, unknown>) =>
      createRunSchema(toy).parse({ pipeline: "qa", endpointId: "e1", ...body });
    expect(parse({ itemSetId: "s0" }).itemSetId).toBe("s0");
    expect(parse({ captionSetId: "s1" }).itemSetId).toBe("s1");
    expect(parse({ questionSetId: "s2" }).itemSetId).toBe("s2");
    expect(parse({ clipSetId: "s3" }).itemSetId).toBe("s3");
    expect(parse({ candidateSetId: "s4" }).itemSetId).toBe("s4");
    // The toy pipeline's registration brings its own alias.
    expect(parse({ toyThingSetId: "s5" }).itemSetId).toBe("s5");
    expect(parse({ itemSetId: "s6", questionSetId: "other" }).itemSetId).toBe("s6");
    expect(parse({}).itemSetId).toBeUndefined();
    expect(createRunSchema(toy).safeParse({ pipeline: "qa", endpointId: "e1", questionSetId: "" }).success).toBe(false);
  });

  it("lets createRun start the catalogue's pipeline and name its set in errors from its module", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    const start = async (body: Record<string, unknown>) =>
      createRun(
        { prisma, queue: { enqueue: async () => {} }, pipelines: toy.pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        createRunSchema(toy).parse({ pipeline: "toy_forms", endpointId: endpoint.id, ...body }),
      );
    await expect(start({})).rejects.toThrow("Pipeline toy_forms judges items: name the set with toyThingSetId.");
    await expect(start({ toyThingSetId: "missing" })).rejects.toThrow("No such toy thing set in this project.");
    await expect(start({ itemSetId: "missing" })).rejects.toThrow("No such toy thing set in this project.");
    // The shipped item pipelines still name their sets as before.
    await expect(
      createRun(
        { prisma, queue: { enqueue: async () => {} }, pipelines: toy.pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        createRunSchema(toy).parse({ pipeline: "qa_generate", endpointId: endpoint.id }),
      ),
    ).rejects.toThrow("Pipeline qa_generate judges items: name the set with clipSetId.");
    await expect(
      createRun(
        { prisma, queue: { enqueue: async () => {} }, pipelines: toy.pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        createRunSchema(toy).parse({ pipeline: "qa_construct", endpointId: endpoint.id, itemSetId: "missing" }),
      ),
    ).rejects.toThrow("No such candidate set in this project.");
    expect(await prisma.judgeRun.count({ where: { projectId } })).toBe(0);
  });
});

describe("the Judge page's run form", () => {
  it("offers the shipped pipelines as before, then the toy one, each with the project's defaults parsed by its settings schema", () => {
    const offered = runFormPipelines(toy, { toy_forms: { level: 4 }, qa: { frames: 16 } });
    expect(offered.map((p) => [p.id, p.label])).toEqual([
      ["hallucination", "hallucination (Sora Detector)"],
      ["caption_style", "caption style (seed 003 rubric)"],
      ["caption_content", "caption content (AnyCapEval key points)"],
      ["qa", "video QA (seed 004, the endpoint answers)"],
      ["vbench2", "VBench-2.0 (the 12 VLM-judged dimensions)"],
      ["toy_forms", "toy forms (test only)"],
    ]);
    expect(offered.find((p) => p.id === "toy_forms")).toEqual({
      id: "toy_forms",
      folderId: "toy-forms",
      label: "toy forms (test only)",
      itemNoun: "toy thing",
      defaults: { level: 4 },
    });
    expect(offered.find((p) => p.id === "qa")).toMatchObject({
      endpointLabel: "Evaluated model (endpoint)",
      itemNoun: "question",
      defaults: { frames: 16, textOnlyBaseline: expect.any(Boolean) },
    });
    expect(offered.find((p) => p.id === "caption_style")!.defaults).toEqual({
      countedScore: "after_rules",
      frames: 8,
      wordCounting: "framejury",
    });
    // A saved default that no longer parses gives way to the schema's own.
    expect(runFormPipelines(toy, { toy_forms: { level: 99 } }).find((p) => p.id === "toy_forms")!.defaults).toEqual({
      level: 2,
    });
  });
});

describe("the project's navigation", () => {
  it("links the toy task's pages after the core link each names, by the role's actions, and keeps the shipped order", () => {
    const ids = (role: "owner" | "reviewer" | "viewer") => projectNavItems("p1", role, toy).map((i) => i.id);
    expect(ids("owner")).toEqual([
      "overview",
      "videos",
      "import",
      "judge",
      "toy-forms",
      "queues",
      "pairs",
      "agreement",
      "adjudication",
      "captions",
      "qa",
      "vbench2",
      "calibration",
      "construction",
      "prompts",
      "rubrics",
      "settings",
      "toy-forms-owners",
    ]);
    expect(ids("viewer")).toContain("toy-forms");
    expect(ids("viewer")).not.toContain("toy-forms-owners");
    expect(projectNavItems("p1", "viewer", toy).find((i) => i.id === "toy-forms")).toEqual({
      id: "toy-forms",
      label: "Toys",
      href: "/projects/p1/toys",
    });
    expect(projectNav(toy).find((i) => i.id === "captions")).toEqual({
      id: "captions",
      label: "Captions",
      path: "/captions",
      action: "project.view",
    });
  });
});
