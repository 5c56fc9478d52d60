/**
 * Issue 24 item 4: a task is its folder. A toy video-subject task (its declarations and its module, as a
 * folder's declarations.ts and module.ts give them) is added to a catalogue of this file's own (withTasks; its kit
 * handed to the stub and the crawl's list), which the file hands to what it calls, and with
 * no other edit it is run through the run API's schema and the stub LLM, offered by the Judge form, shown by
 * the video list, reviewed in a queue, counted by the agreement report, written by the export and listed for
 * the page crawl.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { crawlPages, withTaskPages } from "../../e2e/pages";
import { projectAgreement } from "../agreement/load";
import { exportQuerySchema, agreementQuerySchema } from "../agreement/report-filter";
import { projectExport } from "../agreement/export";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { queueAccess } from "@/testkit/testing/queue-access";
import type { ItemSetKind } from "../task-modules/item-set-kind";
import { itemFilterSchema } from "../items/item-filter";
import { getItem, listItems } from "../items/items";
import { importItemSet } from "../../testkit/testing/item-sets";
import { createEndpoint } from "../judge/endpoints/endpoints";
import { createRunSchema, pipelineIds } from "../judge/runs/run-input.validation";
import type { PipelineDefinition, RegisteredPipeline } from "../task-modules/pipeline-types";
import { runFormPipelines } from "../judge/runs/run-form";
import { createRun, getRunStatus } from "../judge/runs/runs";
import type { TemplateSource } from "../judge/prompts/template-source";
import type { StubRule } from "../../testkit/llm-stub/stub-rule";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { defaultStubRules } from "../../testkit/llm-stub/stub-rules";
import { TASK_KITS, type TaskKit } from "../../testkit/task-kits";
import { exampleLabelTargets } from "../label-sets/label-target-examples";
import { importTaskLabelSet } from "../label-sets/label-sets";
import { labelSetImportFieldsSchema } from "../label-sets/label-sets.validation";
import { SPAN_IMPORT_FORMATS } from "../spans/span-files/span-file-formats";
import { projectNavItems } from "../../testkit/testing/project-nav-items";
import { addMember } from "../projects/projects";
import { createQueue } from "../queues/create-queue";
import { getQueueItem } from "../queues/get-queue-item";
import { nextItem } from "../queues/next-item";
import { submitItem } from "../queues/submit-item";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { provideCataloguesWith } from "../../testkit/testing/provide-catalogues";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { browseVideos } from "../videos/browse-videos";
import { uniformFrameItems, videosLackingUniformFrames } from "../videos/uniform-frame-sets";
import { isVideoFilterKey, videoListQuerySchema } from "../videos/video-filter";

import type { CrawlPage } from "../../testkit/crawl/task-crawl";
import { itemNounPhrase, pipelineNames, runResultsLinkOf } from "../task-modules/task-display";
import type { TaskModule } from "../task-modules/task-module";
import { videoItemLists } from "./video-item-lists";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { builtInCatalogue, type ProjectTask, withTasks } from "../task-modules/task-catalogue";
import { accessOfRun } from "../../testkit/testing/record-access";

const TOY_TEMPLATE = "Toy glow judge. How much does this video glow, 0 to 4?";
const zeroToFour = { kind: "numeric", min: 0, max: 4, step: 1 } as const;

const toyTask: TaskDeclaration = {
  id: "toy_glow",
  label: "Toy glow judge",
  subject: "video",
  targets: [
    {
      id: "toy_glow_score",
      label: "Glow",
      definition: "How much the video glows.",
      scale: zeroToFour,
      level: "ordinal",
      higherIsBetter: true,
      scope: "video",
      positive: { op: ">=", threshold: 3, label: "glowing" },
    },
  ],
  metrics: [
    {
      id: "toy_brightness",
      label: "Brightness",
      definition: "The glow score.",
      aggregation: "glow",
      scale: { kind: "numeric", min: 0, max: 4, step: null },
      level: "ordinal",
      higherIsBetter: true,
      positive: { op: ">=", threshold: 3, label: "bright" },
    },
  ],
  groupings: [],
};

const toyPipeline: PipelineDefinition = {
  id: "toy_glow",
  label: "Toy glow judge",
  task: toyTask,
  steps: [
    {
      id: "glow",
      label: "Rate the glow",
      scope: "video",
      templateId: "toy/glow",
      schema: z.object({ glow: z.number().int().min(0).max(4) }),
      responseFormat: { type: "json_object" },
      dependsOn: () => [],
      input: (_scopeIndex, context) => ({ values: {}, frames: context.frames }),
      scores: (output) => [{ category: "toy_glow_score", value: (output as { glow: number }).glow }],
    },
  ],
  summarize: (scores) => ({ glow: scores.find((s) => s.category === "toy_glow_score")?.value ?? null }),
  metricValues: (summary) => ({ toy_brightness: (summary as { glow: number | null }).glow }),
};

/** Each video's glow comes from its prompt's file name: the stub answers 1 for the first video, 4 for the second. */
const toyRule: StubRule = {
  name: "toy-glow",
  match: /^Toy glow judge\./,
  respond: (context) => JSON.stringify({ glow: [1, 4][context.pick(2, "glow")] }),
};

const templates: TemplateSource = {
  get: (id) => {
    if (id !== "toy/glow") throw new Error(`no template ${id}`);
    return { hash: createHash("sha256").update(TOY_TEMPLATE).digest("hex"), render: () => TOY_TEMPLATE };
  },
};

const toyCrawlPage: CrawlPage = { route: "/projects/[projectId]/toy-glow", project: { action: "project.view" } };
/** The task folders' kits and the toy's, as a folder's kit.ts would give it: its stub rule and its page for the crawl. */
const TOY_KITS: readonly TaskKit[] = [
  ...TASK_KITS,
  { id: "toy-glow", stubRules: [toyRule], crawlPages: [toyCrawlPage] },
];

/** The toy's item list on the video page: one note per video, checked against the caller's access as a task's own would be. */
const toyVideoItemList: TaskModule["videoItemList"] = async (_db, access, videoId) => {
  const { projectId } = access;
  return {
    title: "Glow notes (1)",
    testId: "toy-glow-notes",
    itemTestId: "toy-glow-note",
    items: [
      {
        id: `note-${videoId}`,
        href: `/projects/${projectId}/toy-glow?videoId=${videoId}`,
        tag: null,
        model: null,
        text: "glows",
      },
    ],
    more: null,
  };
};

let stub: StubServer;
let owner: Actor;
let reviewer: Actor;
let projectId: string;
let videoIds: string[];
let runId: string;
/** The judge's glow per video id, as stored. */
const glowOf: Record<string, number> = {};
/** The built-in catalogue with the toy task added: what this file hands the core where a request's catalogue goes. */
const toyEntry: ProjectTask = {
  module: {
    id: "toy-glow",
    pipelines: [toyPipeline as RegisteredPipeline],
    videoItemList: toyVideoItemList,
  },
  declarations: {
    id: "toy-glow",
    tasks: [toyTask],
    runForm: { toy_glow: { label: "toy glow (test only)" } },
    navLinks: [{ id: "toy-glow", label: "Glow", path: "/toy-glow", action: "project.view", after: "judge" }],
    runResultsLinks: { toy_glow: { path: "/toy-glow", label: "glow results", testId: "toy-glow-results" } },
    itemNouns: [{ one: "glow note", many: "glow notes" }],
  },
};
const toy = withTasks(builtInCatalogue(), toyEntry);
// The engine finds the toy task in its project's catalogue, as it finds a project's own task.
provideCataloguesWith(toyEntry);

beforeAll(async () => {
  stub = await startStubLlm({ rules: defaultStubRules(TOY_KITS) });
  [owner, reviewer] = await Promise.all([makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    name: "Toy everywhere",
  }));
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: reviewer.email,
    role: "reviewer",
  });
});
afterAll(async () => {
  await stub?.close();
});

describe("a toy task of a catalogue appears everywhere that catalogue goes", () => {
  it("1. the run API's schema takes its pipeline, and a run of it is judged through its stub rule with scores stored", async () => {
    expect(pipelineIds(toy)).toContain("toy_glow");
    const body = createRunSchema(toy).parse({ pipeline: "toy_glow", endpointId: "placeholder" });
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "stub",
      baseUrl: stub.baseURL,
      model: "stub-vision",
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 4,
      requestsPerMinute: null,
      timeoutSeconds: 60,
      structuredOutput: true,
      pricePer1kInput: null,
      pricePer1kOutput: null,
    });
    const run = await createRun(
      {
        prisma,
        queue: inlineJudgeQueue(testJudgeDeps({ templates })),
        pipelines: toy.pipelines,
      },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { ...body, endpointId: endpoint.id },
    );
    runId = run.id;
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, runId), runId)).toMatchObject({
      status: "done",
      calls: { total: 2 },
    });
    expect(stub.requests.map((request) => request.rule)).toEqual(["toy-glow", "toy-glow"]);
    const scores = await prisma.score.findMany({ where: { runId } });
    expect(scores.map((s) => s.category)).toEqual(["toy_glow_score", "toy_glow_score"]);
    for (const score of scores) glowOf[score.videoId] = score.value;
    expect(Object.keys(glowOf).sort()).toEqual([...videoIds].sort());
    expect(Object.values(glowOf).every((v) => v === 1 || v === 4)).toBe(true);
  });

  it("2. the Judge form's pipeline list offers it, and the project's navigation links its page", () => {
    expect(runFormPipelines(toy, {}).find((p) => p.id === "toy_glow")).toMatchObject({
      id: "toy_glow",
      folderId: "toy-glow",
      label: "toy glow (test only)",
    });
    expect(projectNavItems("p1", "viewer", toy).find((i) => i.id === "toy-glow")).toEqual({
      id: "toy-glow",
      label: "Glow",
      href: "/projects/p1/toy-glow",
    });
  });

  it("3. the video list shows the toy's metric as a column of its run, filters and sorts by it and by its target", async () => {
    const browse = async (query: Record<string, string>) =>
      (
        await browseVideos(
          prisma,
          await projectAccess(prisma, owner, projectId, "project.view"),
          videoListQuerySchema(toy).parse({ runId, ...query }),
          toy,
        )
      ).videos;
    const listed = await browseVideos(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      videoListQuerySchema(toy).parse({ runId }),
      toy,
    );
    expect(listed.run?.id).toBe(runId);
    expect(listed.videos.map((v) => [v.id, v.scores]).sort()).toEqual(
      videoIds.map((id) => [id, { toy_brightness: glowOf[id] }]).sort(),
    );
    // The generic metric keys, the sort and the category are parsed from the catalogue.
    expect(isVideoFilterKey(toy, "min.toy_brightness")).toBe(true);
    const ids = (videos: { id: string }[]) => videos.map((v) => v.id).sort();
    expect(ids(await browse({ "min.toy_brightness": "3" }))).toEqual(videoIds.filter((id) => glowOf[id]! >= 3).sort());
    expect(ids(await browse({ "max.toy_brightness": "2" }))).toEqual(videoIds.filter((id) => glowOf[id]! <= 2).sort());
    expect((await browse({ sort: "toy_brightness", dir: "desc" })).map((v) => glowOf[v.id])).toEqual(
      videoIds.map((id) => glowOf[id]).sort((a, b) => b! - a!),
    );
    expect((await browse({ sort: "toy_brightness", dir: "asc" })).map((v) => glowOf[v.id])).toEqual(
      videoIds.map((id) => glowOf[id]).sort((a, b) => a! - b!),
    );
    expect(ids(await browse({ category: "toy_glow_score", categoryMin: "3" }))).toEqual(
      videoIds.filter((id) => glowOf[id]! >= 3).sort(),
    );
    expect(videoListQuerySchema(toy).safeParse({ "min.toy_brightness": "5" }).success).toBe(false);
  });

  it("4. a review queue over its run hands out its targets, and a submission saves the reviewer's judgments", async () => {
    const queue = await createQueue(
      prisma,
      await projectAccess(prisma, owner, projectId, "queues.manage"),
      {
        name: "Toy glow",
        runId,
        filter: { "min.toy_brightness": 0 },
        sort: "toy_brightness",
        scope: "scores",
        categories: ["toy_glow_score"],
      },
      toy,
    );
    expect(queue.itemCount).toBe(2);
    for (let i = 0; i < 2; i++) {
      const { itemId } = await nextItem(
        prisma,
        await queueAccess(prisma, reviewer, queue.id, "scores.review"),
        queue.id,
      );
      const payload = await getQueueItem(
        prisma,
        await queueAccess(prisma, reviewer, queue.id, "scores.review"),
        queue.id,
        itemId!,
        toy,
      );
      expect(payload.targets.map((t) => [t.category, t.label, t.min, t.max, t.judge])).toEqual([
        ["toy_glow_score", "Glow", 0, 4, glowOf[payload.video.id]],
      ]);
      // The reviewer always says 3.
      await submitItem(
        prisma,
        await queueAccess(prisma, reviewer, queue.id, "scores.review"),
        queue.id,
        itemId!,
        {
          judgments: [{ target: payload.targets[0]!.key, value: 3 }],
        },
        toy,
      );
    }
    const saved = await prisma.humanJudgment.findMany({ where: { projectId, reviewerId: reviewer.userId } });
    expect(
      saved.map((j) => [j.videoId, j.task, j.targetType, j.target, j.value, j.judgeValue, j.runId]).sort(),
    ).toEqual(videoIds.map((id) => [id, "toy_glow", "score", "toy_glow_score", 3, glowOf[id], runId]).sort());
  });

  it("5. the agreement report shows the toy's target with those judgments", async () => {
    const report = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(toy).parse({ runId }),
      toy,
    );
    const judged = videoIds.map((id) => glowOf[id]!);
    expect(report.runs.map((r) => [r.id, r.pipeline])).toEqual([[runId, "toy_glow"]]);
    expect(report.summary).toMatchObject({ videos: 2, judgeItems: 2, reviewedItems: 2, judgments: 2, reviewers: 1 });
    // The toy's positive label ("glowing", ≥ 3) and its 0–4 scale come from its declaration.
    expect(report.confusionKinds[0]).toMatchObject({
      id: "score",
      label: "Scores (0–4)",
      positive: "glowing",
      negative: "not glowing",
    });
    expect(report.breakdowns.category.map((row) => [row.key, row.items, row.link])).toEqual([
      ["toy_glow_score", 2, { runId, category: "toy_glow_score" }],
    ]);
    // The reviewer said 3 to every item: the judge's error is |3 − glow|, and 3 is "glowing".
    const consensus = report.humanVsJudge.consensus;
    expect(consensus.native.score!.n).toBe(2);
    expect(consensus.native.score!.values.mae).toBeCloseTo(judged.reduce((sum, g) => sum + Math.abs(3 - g), 0) / 2);
    expect(consensus.binary.confusion).toEqual({
      tp: judged.filter((g) => g >= 3).length,
      fp: 0,
      fn: judged.filter((g) => g < 3).length,
      tn: 0,
    });
  });

  it("6. the export writes the toy's rows with the judge's and the reviewer's values", async () => {
    const { stream } = await projectExport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      exportQuerySchema(toy).parse({ runId, format: "jsonl" }),
      toy,
    );
    let text = "";
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += typeof value === "string" ? value : new TextDecoder().decode(value);
    }
    const rows = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      rows
        .map((row) => [
          row.videoId,
          row.runId,
          row.target,
          row.step,
          row.category,
          row.judgeValue,
          (row.reviews as { reviewerId: string; value: number }[]).map((r) => [r.reviewerId, r.value]),
        ])
        .sort(),
    ).toEqual(
      videoIds.map((id) => [id, runId, "score", "glow", "toy_glow_score", glowOf[id], [[reviewer.userId, 3]]]).sort(),
    );
  });

  it("7. the page crawl's list takes the toy's page from its kit", () => {
    const taskPages = TOY_KITS.flatMap((kit) => kit.crawlPages ?? []);
    expect(taskPages).toContain(toyCrawlPage);
    expect(withTaskPages([], taskPages).map((page) => page.route)).toContain("/projects/[projectId]/toy-glow");
    // The crawl's own list, read when it is asked for, carries the toy's page after the core's.
    expect(crawlPages(TOY_KITS).map((page) => page.route)).toContain("/projects/[projectId]/toy-glow");
  });

  it("8. the run page links its results page, the video page lists its items, and the core's texts name its pipeline and its items", async () => {
    expect(runResultsLinkOf(toy, "toy_glow")).toEqual({
      path: "/toy-glow",
      label: "glow results",
      testId: "toy-glow-results",
    });
    const lists = await videoItemLists(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      videoIds[0]!,
      toy,
    );
    expect(lists.map((list) => list.testId)).toContain("toy-glow-notes");
    expect(lists.find((list) => list.testId === "toy-glow-notes")!.items[0]!.href).toBe(
      `/projects/${projectId}/toy-glow?videoId=${videoIds[0]}`,
    );
    expect(pipelineNames(toy)).toContain("Toy glow judge");
    expect(itemNounPhrase(toy).one).toMatch(/ or glow note$/);
    expect(itemNounPhrase(toy).many).toMatch(/ and glow notes$/);
  });
});

/**
 * A toy folder with items and a label file format of its own ("video<TAB>note" lines; a ".toy" label file),
 * in a catalogue of its own (the toy glow's, with the notes' folder added): the item list, the Extract pending page's
 * sized list and the label-set import read it from the catalogue they are given, and not from one without it.
 */
const toyNotesKind: ItemSetKind<{ name?: string; dryRun?: boolean }, { notes: number }> = {
  id: "toy_notes",
  noun: "toy note set",
  defaultFileName: "notes.tsv",
  async plan({ file, options, videos }) {
    const videoIdByName = new Map(videos.map((video) => [video.relativePath.split("/").pop()!, video.id]));
    const lines = new TextDecoder().decode(file.bytes).split("\n").filter(Boolean);
    return {
      set: { name: options.name || file.fileName, model: null, referenceSetId: null, citation: null },
      items: lines.map((line, index) => ({
        videoId: videoIdByName.get(line.split("\t")[0]!)!,
        externalId: `note-${index + 1}`,
        kind: "toy_note",
        group: "toy",
        payload: { note: line.split("\t")[1] ?? "" },
      })),
      summary: { notes: lines.length },
    };
  },
  itemList: {
    itemKind: "toy_note",
    itemNoun: "toy note",
    view: (item) => ({ note: (item.payload as { note: string }).note }),
  },
  uniformFrames: { itemKind: "toy_note", itemsNoun: "toy notes", atPlannedSize: true, runsNoun: "toy runs" },
};

/** The toy glow's catalogue with the notes' folder added. */
const withNotes = withTasks(toy, {
  module: {
    id: "toy-notes",
    pipelines: [],
    itemSetKinds: [toyNotesKind],
    labelSetFormats: [
      {
        id: "toy_sheet",
        importLabels: async (_prisma, _access, input) => ({
          dryRun: input.dryRun,
          plan: { toyFile: input.fileName },
          labelSet: null,
        }),
      },
    ],
  },
  declarations: {
    id: "toy-notes",
    tasks: [],
    labelSetFormats: [
      {
        id: "toy_sheet",
        label: "Toy sheet (.toy)",
        description: "a toy label file (.toy)",
        fileLabel: "Toy file",
        accept: ".toy",
        defaultName: "Toy labels",
      },
    ],
  },
});

/** A set of toy notes, one per video of the project ("note 0", "note 1" in path order). */
async function importToyNotes() {
  const videos = await prisma.video.findMany({
    where: { projectId },
    orderBy: { relativePath: "asc" },
    select: { relativePath: true },
  });
  const lines = videos.map((video, i) => `${video.relativePath.split("/").pop()}\tnote ${i}`).join("\n");
  await importItemSet(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    "toy_notes",
    { fileName: "notes.tsv", bytes: new TextEncoder().encode(lines) },
    {},
    withNotes,
  );
}

describe("a toy task's items and label files appear where the core lists them", () => {
  it("8. the item list offers the toy's item kind and shows its items through its view; without it, the kind is refused", async () => {
    expect(itemFilterSchema(toy).safeParse({ kind: "toy_note" }).success).toBe(false);
    {
      await importToyNotes();
      const filter = itemFilterSchema(withNotes).parse({ kind: "toy_note" });
      const listed = await listItems(
        prisma,
        await projectAccess(prisma, reviewer, projectId, "project.view"),
        filter,
        withNotes,
      );
      expect(listed.total).toBe(2);
      expect(
        listed.items
          .map((item) => ({
            kind: item.kind,
            externalId: item.externalId,
            note: (item as unknown as { note: string }).note,
          }))
          .sort((a, b) => a.externalId.localeCompare(b.externalId)),
      ).toEqual([
        { kind: "toy_note", externalId: "note-1", note: "note 0" },
        { kind: "toy_note", externalId: "note-2", note: "note 1" },
      ]);
      expect(
        await getItem(
          prisma,
          await projectAccess(prisma, reviewer, projectId, "project.view"),
          listed.items[0]!.id,
          withNotes,
        ),
      ).toMatchObject({
        projectId,
        kind: "toy_note",
        note: expect.stringMatching(/^note \d$/),
      });
      // The toy's kind joins the whitelist; it does not become the default (it declares no listedByDefault).
      expect(itemFilterSchema(withNotes).parse({}).kind).not.toBe("toy_note");
      expect(itemFilterSchema(withNotes).safeParse({ kind: "no_such_kind" }).success).toBe(false);
    }
    expect(itemFilterSchema(toy).safeParse({ kind: "toy_note" }).success).toBe(false);
  });

  it("9. the Extract pending page's sized list covers the videos with the toy's items, under the toy's noun", async () => {
    expect(uniformFrameItems(toy, true).itemKinds).not.toContain("toy_note");
    {
      await importToyNotes();
      expect(uniformFrameItems(withNotes, true)).toMatchObject({
        itemKinds: expect.arrayContaining(["toy_note"]),
        itemsNoun: expect.stringContaining("toy notes"),
        runsNoun: expect.stringContaining("toy runs"),
      });
      const lacking = await videosLackingUniformFrames(
        prisma,
        await projectAccess(prisma, owner, projectId, "videos.import"),
        8,
        { mode: "longest_side", px: 256 },
        false,
        withNotes,
      );
      expect(lacking.map((video) => video.id).sort()).toEqual([...videoIds].sort());
      expect(lacking.map((video) => video.maxSide)).toEqual([256, 256]);
    }
    expect(
      await videosLackingUniformFrames(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), 8, {
        mode: "longest_side",
        px: 256,
      }),
    ).toEqual([]);
  });

  it("10. the label-set import takes the toy's format and hands its file to the toy's importer; the form's target examples name the toy's target", async () => {
    expect(
      labelSetImportFieldsSchema(toy, SPAN_IMPORT_FORMATS).safeParse({ format: "toy_sheet", name: "Toy labels" })
        .success,
    ).toBe(false);
    expect(exampleLabelTargets(toy.tasks)).toContain("toy_glow_score");
    {
      const fields = labelSetImportFieldsSchema(withNotes, SPAN_IMPORT_FORMATS).parse({
        format: "toy_sheet",
        name: "Toy labels",
      });
      expect(fields.format).toBe("toy_sheet");
      const input = {
        file: new Uint8Array([1]),
        fileName: "labels.toy",
        name: fields.name,
        match: { by: "file_name" as const },
        dryRun: true,
      };
      expect(
        await importTaskLabelSet(
          prisma,
          await projectAccess(prisma, owner, projectId, "videos.import"),
          fields.format,
          input,
          withNotes,
        ),
      ).toEqual({
        dryRun: true,
        plan: { toyFile: "labels.toy" },
        labelSet: null,
      });
    }
    expect(
      labelSetImportFieldsSchema(toy, SPAN_IMPORT_FORMATS).safeParse({ format: "toy_sheet", name: "Toy labels" })
        .success,
    ).toBe(false);
  });
});
