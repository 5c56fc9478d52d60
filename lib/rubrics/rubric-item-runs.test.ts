/**
 * Issue 25, rubric tasks whose subject is an item (a JSONL of {video, text, reference}): a run judges each item of
 * the chosen set in one call with its video's frames and `{{item.<field>}}` filled, stores its values per item,
 * skips an item whose required field is empty; a blind queue over the run's items shows each item's fields and
 * frames and saves each criterion's judgment; the agreement report compares each criterion at its level over the
 * items, with the numbers counted by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_BASE_COLUMNS, type ExportRow, projectExport } from "../agreement/export";
import { projectAgreement } from "../agreement/load";
import { agreementQuerySchema, exportQuerySchema } from "../agreement/report-filter";
import type { Actor } from "../auth/actor";
import { compareSetupsQuerySchema } from "../calibration/calibration.validation";
import { compareSetupsReport, compareTargetChoices } from "../calibration/compare-setups-load";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { parseCsvTable } from "../import/csv";
import { createEndpoint } from "../judge/endpoints/endpoints";
import { labelSetReviewerId } from "../label-sets/label-set-reviewer";
import { importGenericLabels } from "../label-sets/label-sets";
import { createRun, getRunStatus } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { addMember } from "../projects/projects";
import { createQueue } from "../queues/create-queue";
import { itemQueueTypeForms } from "../queues/queue-form-choices";
import { getQueueItem } from "../queues/get-queue-item";
import { nextItem } from "../queues/next-item";
import { submitItem } from "../queues/submit-item";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { RUBRIC_STEP } from "./rubric-calls";
import { rubricItemKind, rubricMetricId, rubricTargetId } from "./rubric-declaration";
import type { RubricDefinitionInput } from "./rubric-definition";
import { rubricItemQueueTypeId } from "./rubric-item-queue-type";
import { importRubricItems } from "./rubric-item-sets";
import { rubricItemValues, rubricItemValuesQuerySchema } from "./rubric-item-values";
import { previewRubric } from "./preview-rubric";
import { createRubricTask, saveRubricVersion } from "./rubric-tasks";
import { builtInCatalogue, catalogFor } from "../task-modules/task-catalogue";
import { accessOfRun } from "../../testkit/testing/record-access";

const CAPTIONS: RubricDefinitionInput = {
  name: "Caption quality",
  subject: {
    kind: "item",
    fields: [
      { id: "text", label: "caption" },
      { id: "reference", label: "reference caption", required: false },
    ],
  },
  frames: { mode: "uniform", count: 4 },
  criteria: [
    {
      id: "faithful",
      name: "Faithfulness",
      type: "numeric",
      min: 1,
      max: 5,
      step: 1,
      definition: "1 invents most of it … 5 says only what the video shows.",
    },
    {
      id: "detail",
      name: "Detail",
      type: "categorical",
      ordered: true,
      labels: [
        { label: "sparse", definition: "Names one thing." },
        { label: "fair", definition: "Names the main things." },
        { label: "rich", definition: "Names the main things and how they move." },
      ],
      definition: "How much of the video the caption covers.",
    },
    { id: "fluent", name: "Fluent", type: "boolean", definition: "The caption reads as natural English." },
  ],
  prompt:
    "The images are {{frames}}\nCaption: {{item.text}}\nReference: {{item.reference}}\n\nRate the caption on:\n{{criteria}}",
};

const CRITERIA = ["faithful", "detail", "fluent"] as const;
/** Items per video (in the project's path order); the last item's caption is empty, so the run skips it. */
const ITEMS = [
  { id: "c1", video: 0, text: "A dog runs across a lawn.", reference: "A brown dog runs." },
  { id: "c2", video: 0, text: "A dog sleeps.", reference: "" },
  { id: "c3", video: 1, text: "A car parks in the rain.", reference: "A red car parks." },
  { id: "c4", video: 1, text: "Two cars race.", reference: "" },
  { id: "c5", video: 2, text: "A cat jumps onto a table.", reference: "A cat jumps." },
  { id: "c6", video: 2, text: "", reference: "Nothing." },
];
const JUDGED = ITEMS.filter((item) => item.text);
/** What Ann and Bob answer per judged item (in JUDGED order). */
const HUMAN = {
  ann: { faithful: [5, 2, 4, 1, 3], detail: [2, 0, 1, 1, 2], fluent: [1, 1, 0, 1, 0] },
  bob: { faithful: [4, 2, 5, 1, 3], detail: [2, 1, 1, 0, 2], fluent: [1, 0, 0, 1, 1] },
};

let stub: StubServer;
let owner: Actor;
let ann: Actor;
let bob: Actor;
let projectId: string;
let paths: string[];
let task: { id: string; key: number; pipeline: string };
let runId: string;
let endpointId: string;
/** The item id of each JUDGED item, by its id in the file. */
const itemIds: Record<string, string> = {};
/** The judge's value per criterion and item id. */
const judge: Record<string, Record<string, number>> = {};

/** Krippendorff's alpha of two raters who rated every unit (see rubric-downstream.test.ts). */
function alphaByHand(pairs: readonly (readonly [number, number])[], level: "nominal" | "ordinal" | "interval"): number {
  const values = pairs.flat();
  const n = values.length;
  const count = (v: number) => values.filter((x) => x === v).length;
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  const delta = (a: number, b: number): number => {
    if (level === "nominal") return a === b ? 0 : 1;
    if (level === "interval") return (a - b) ** 2;
    const [lo, hi] = a < b ? [a, b] : [b, a];
    const between = distinct.filter((v) => v >= lo && v <= hi).reduce((sum, v) => sum + count(v), 0);
    return (between - (count(lo) + count(hi)) / 2) ** 2;
  };
  const observed = pairs.reduce((sum, [a, b]) => sum + 2 * delta(a, b), 0);
  let expected = 0;
  for (const a of values) for (const b of values) expected += delta(a, b);
  return 1 - ((n - 1) * observed) / expected;
}

beforeAll(async () => {
  stub = await startStubLlm();
  [owner, ann, bob] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  ({ projectId } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 3,
    keyFrames: 2,
    uniformFrames: 4,
    name: "Rubric items",
  }));
  paths = (
    await prisma.video.findMany({
      where: { projectId },
      orderBy: { relativePath: "asc" },
      select: { relativePath: true },
    })
  ).map((v) => v.relativePath);
  for (const reviewer of [ann, bob])
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: reviewer.email,
      role: "reviewer",
    });
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
  endpointId = endpoint.id;
  task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
    definition: CAPTIONS,
  });
  const file = ITEMS.map((item) =>
    JSON.stringify({ id: item.id, video: paths[item.video], text: item.text, reference: item.reference }),
  ).join("\n");
  // The importer is all or nothing: the file with an empty required caption is refused, the others import.
  const good = ITEMS.filter((item) => item.text);
  const stored = await importRubricItems(
    prisma,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    task.id,
    {
      fileName: "captions.jsonl",
      bytes: new TextEncoder().encode(
        good
          .map((item) =>
            JSON.stringify({ id: item.id, video: paths[item.video], text: item.text, reference: item.reference }),
          )
          .join("\n"),
      ),
    },
    { name: "Captions" },
  );
  await expect(
    importRubricItems(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      task.id,
      { fileName: "all.jsonl", bytes: new TextEncoder().encode(file) },
      {},
    ),
  ).rejects.toMatchObject({
    status: 422,
    details: { errors: [{ line: 6, message: "text: the caption is required" }] },
  });
  // An item stored before the rubric required its caption (say, under an earlier version) has it empty: the run skips it.
  const last = ITEMS.at(-1)!;
  const video = await prisma.video.findFirstOrThrow({
    where: { projectId, relativePath: paths[last.video] },
    select: { id: true },
  });
  await prisma.item.create({
    data: {
      projectId,
      setId: stored.set.id!,
      videoId: video.id,
      externalId: last.id,
      kind: rubricItemKind(task.key),
      group: "",
      payload: { video: paths[last.video]!, fields: { text: "", reference: last.reference }, line: 6 },
    },
  });
  for (const item of await prisma.item.findMany({
    where: { setId: stored.set.id! },
    select: { id: true, externalId: true },
  }))
    itemIds[item.externalId] = item.id;

  const deps = { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines };
  const run = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
    pipeline: task.pipeline,
    endpointId: endpoint.id,
    itemSetId: stored.set.id!,
  });
  expect(run).toMatchObject({ videos: 3, items: ITEMS.length });
  runId = run.id;
  expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, runId), runId)).status).toBe("done");
  for (const score of await prisma.score.findMany({ where: { runId } }))
    (judge[score.category] ??= {})[score.itemId!] = score.value;
});
afterAll(async () => stub?.close());

const target = (criterion: string) => rubricTargetId(task.key, criterion);

describe("a run of a rubric task over items", () => {
  it("declares the task's subject as its item kind and each criterion at its level, per item", async () => {
    const declared = (await catalogFor(prisma, projectId)).findTask(task.pipeline)!;
    expect(declared.subject).toBe(rubricItemKind(task.key));
    expect(declared.targets.map((t) => [t.id, t.level, t.scope])).toEqual([
      [target("faithful"), "interval", "item"],
      [target("detail"), "ordinal", "item"],
      [target("fluent"), "nominal", "item"],
    ]);
  });

  it("judges each item in one call with its video's frames and its fields in the prompt, and skips an item without its required caption", async () => {
    const calls = stub.requests.filter((r) => r.text.includes("Rate the caption on:"));
    expect(calls).toHaveLength(JUDGED.length);
    for (const item of JUDGED) {
      const call = calls.find((c) => c.text.includes(`Caption: ${item.text}\n`))!;
      expect(call.text).toContain(`Reference: ${item.reference}\n`);
      expect(call.imageCount).toBe(4);
    }
    const skipped = await prisma.stepResult.findMany({
      where: { runId, status: "skipped" },
      select: { error: true, scopeIndex: true, videoId: true },
    });
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.error).toContain("the item has no caption (text), which the rubric requires");
  });

  it("stores each judged item's values as its scores and per-item metrics, on each criterion's scale, and nothing for the video itself", async () => {
    for (const criterion of CRITERIA) {
      expect(Object.keys(judge[target(criterion)] ?? {}).sort()).toEqual(JUDGED.map((item) => itemIds[item.id]).sort());
    }
    for (const value of Object.values(judge[target("faithful")]!)) expect([1, 2, 3, 4, 5]).toContain(value);
    for (const value of Object.values(judge[target("detail")]!)) expect([0, 1, 2]).toContain(value);
    for (const value of Object.values(judge[target("fluent")]!)) expect([0, 1]).toContain(value);
    const metrics = await prisma.runMetric.findMany({
      where: { runId },
      select: { itemId: true, metric: true, value: true },
    });
    expect(metrics.filter((m) => m.itemId === "")).toEqual([]);
    for (const criterion of CRITERIA) {
      for (const item of JUDGED) {
        const id = itemIds[item.id]!;
        expect(metrics.find((m) => m.itemId === id && m.metric === rubricMetricId(task.key, criterion))?.value).toBe(
          judge[target(criterion)]![id],
        );
      }
    }
    // The stub answers from the prompt and the images: the same run again gives the same values.
    const again = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: task.pipeline,
        endpointId: (await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } })).endpointId,
        itemSetId: (await prisma.item.findUniqueOrThrow({ where: { id: itemIds.c1! } })).setId,
      },
    );
    const repeated = await prisma.score.findMany({
      where: { runId: again.id },
      select: { category: true, itemId: true, value: true },
    });
    expect(repeated).toHaveLength(JUDGED.length * CRITERIA.length);
    for (const score of repeated) expect(score.value).toBe(judge[score.category]![score.itemId!]);
  });
});

describe("previewing a rubric over items", () => {
  it("fills the prompt from the named item of the video, sends what the run sent (so answers from its cache), and refuses without an item", async () => {
    const first = JUDGED[0]!;
    const video = await prisma.video.findFirstOrThrow({
      where: { projectId, relativePath: paths[first.video] },
      select: { id: true },
    });
    const preview = await previewRubric(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition: CAPTIONS,
      videoId: video.id,
      endpointId,
      scopeIndex: 0,
      item: first.id,
    });
    expect(preview.prompt).toContain(`Caption: ${first.text}\nReference: ${first.reference}\n`);
    expect(preview.frames).toHaveLength(4);
    expect(preview.cached).toBe(true);
    expect(Object.fromEntries(Object.entries(preview.parsed!).map(([id, v]) => [id, v.value]))).toEqual(
      Object.fromEntries(CRITERIA.map((c) => [c, judge[target(c)]![itemIds[first.id]!]])),
    );
    await expect(
      previewRubric(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
        definition: CAPTIONS,
        videoId: video.id,
        endpointId,
        scopeIndex: 0,
      }),
    ).rejects.toThrow("item: this rubric judges items");
    await expect(
      previewRubric(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
        definition: CAPTIONS,
        videoId: video.id,
        endpointId,
        scopeIndex: 0,
        item: "c5",
      }),
    ).rejects.toThrow('No item "c5"');
  });
});

describe("reviewing a rubric run's items, and agreement over them", () => {
  it("a blind queue holds one item per judged item, shows its fields and its video's frames, withholds the judge until the reviewer is done, and saves each criterion", async () => {
    // The new-queue form offers the task's scope for this run in its own project only.
    expect(
      (await itemQueueTypeForms(prisma, await projectAccess(prisma, owner, projectId, "project.view"))).find(
        (s) => s.id === rubricItemQueueTypeId(task.key),
      ),
    ).toMatchObject({ reviews: rubricItemKind(task.key) });
    const other = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Another project",
    });
    expect(
      (await itemQueueTypeForms(prisma, await projectAccess(prisma, owner, other.projectId, "project.view"))).map(
        (s) => s.id,
      ),
    ).not.toContain(rubricItemQueueTypeId(task.key));
    await expect(
      createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        name: "wrong scope",
        runId,
        filter: {},
        scope: "scores",
      }),
    ).rejects.toThrow(`choose the scope "${rubricItemQueueTypeId(task.key)}"`);
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Captions, blind",
      runId,
      filter: {},
      scope: rubricItemQueueTypeId(task.key),
      blind: true,
      reviewersPerItem: 2,
    });
    expect(queue.itemCount).toBe(JUDGED.length);
    for (const [reviewer, values] of [
      [ann, HUMAN.ann],
      [bob, HUMAN.bob],
    ] as const) {
      const reviewed: { itemId: string; i: number }[] = [];
      for (let n = 0; n < JUDGED.length; n++) {
        const { itemId } = await nextItem(
          prisma,
          await queueAccess(prisma, reviewer, queue.id, "scores.review"),
          queue.id,
        );
        const item = await getQueueItem(
          prisma,
          await queueAccess(prisma, reviewer, queue.id, "scores.review"),
          queue.id,
          itemId!,
        );
        const subject = (
          item as unknown as {
            rubricItem: { externalId: string; fields: { id: string; label: string; value: string }[] };
          }
        ).rubricItem;
        const i = JUDGED.findIndex((j) => j.id === subject.externalId);
        expect(i).toBeGreaterThanOrEqual(0);
        expect(subject.fields).toEqual([
          { id: "text", label: "caption", value: JUDGED[i]!.text },
          { id: "reference", label: "reference caption", value: JUDGED[i]!.reference },
        ]);
        expect(item.video.frames).toHaveLength(4);
        expect(item.blind).toBe(true);
        expect(item.targets.map((t) => [t.category, t.label, t.min, t.max])).toEqual([
          [target("faithful"), "Faithfulness", 1, 5],
          [target("detail"), "Detail", 0, 2],
          [target("fluent"), "Fluent", 0, 1],
        ]);
        for (const t of item.targets) expect(t).not.toHaveProperty("judge");
        const judgments = CRITERIA.map((criterion) => ({
          target: item.targets.find((t) => t.category === target(criterion))!.key,
          value: values[criterion][i]!,
        }));
        expect(
          await submitItem(prisma, await queueAccess(prisma, reviewer, queue.id, "scores.review"), queue.id, itemId!, {
            judgments,
          }),
        ).toMatchObject({
          status: "done",
          counted: true,
        });
        reviewed.push({ itemId: itemId!, i });
      }
      expect(
        (await nextItem(prisma, await queueAccess(prisma, reviewer, queue.id, "scores.review"), queue.id)).itemId,
      ).toBeNull();
      expect(reviewed.map((r) => r.i).sort()).toEqual(JUDGED.map((_, i) => i));
      // A reviewer stays blind to a video while one of its items waits for them; done, they see the judge's values.
      for (const { itemId, i } of reviewed) {
        const after = await getQueueItem(
          prisma,
          await queueAccess(prisma, reviewer, queue.id, "scores.review"),
          queue.id,
          itemId,
        );
        expect(after.blind).toBe(false);
        expect(after.targets.map((t) => t.judge)).toEqual(
          CRITERIA.map((c) => judge[target(c)]![itemIds[JUDGED[i]!.id]!]),
        );
      }
    }
    const saved = await prisma.humanJudgment.findMany({ where: { projectId, task: task.pipeline } });
    expect(saved).toHaveLength(2 * CRITERIA.length * JUDGED.length);
    for (const row of saved) expect(row.itemId).not.toBe("");
  });

  it("the agreement report compares each criterion over the items at its own measurement level, with the numbers counted by hand", async () => {
    const cases = [
      { criterion: "faithful", level: "interval" },
      { criterion: "detail", level: "ordinal" },
      { criterion: "fluent", level: "nominal" },
    ] as const;
    for (const { criterion, level } of cases) {
      const report = await projectAgreement(
        prisma,
        await projectAccess(prisma, owner, projectId, "export.read"),
        agreementQuerySchema(await catalogFor(prisma, projectId)).parse({ runId, category: target(criterion) }),
      );
      const annPairs = JUDGED.map(
        (item, i) => [judge[target(criterion)]![itemIds[item.id]!]!, HUMAN.ann[criterion][i]!] as const,
      );
      const vsAnn = report.humanVsJudge.reviewers.find((r) => r.reviewerId === ann.userId)!;
      expect(vsAnn.native.score!.n).toBe(JUDGED.length);
      expect(vsAnn.native.score!.values.alpha).toBeCloseTo(alphaByHand(annPairs, level), 10);
      const between = HUMAN.ann[criterion].map((a, i) => [a, HUMAN.bob[criterion][i]!] as const);
      expect(report.humanVsHuman.native.score!.values.alpha).toBeCloseTo(alphaByHand(between, level), 10);
      expect(report.breakdowns.category.map((row) => [row.key, row.items])).toEqual([
        [target(criterion), JUDGED.length],
      ]);
    }
  });
});

describe("exporting a rubric run over items", () => {
  it("names each row's item (its id, its id in the file, its fields) and gives the frames its call saw; a video run's CSV keeps its header", async () => {
    const uniform = async (videoId: string) => {
      const rv = await prisma.runVideo.findFirstOrThrow({ where: { runId, videoId }, select: { frameSetId: true } });
      return (
        await prisma.frame.findMany({
          where: { frameSetId: rv.frameSetId },
          orderBy: { index: "asc" },
          select: { timestampS: true },
        })
      ).map((f) => f.timestampS);
    };
    const { stream } = await projectExport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      exportQuerySchema(await catalogFor(prisma, projectId)).parse({ format: "jsonl", runId }),
    );
    const rows = (await new Response(stream).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ExportRow);
    expect(rows.filter((r) => r.target === "score")).toHaveLength(JUDGED.length * CRITERIA.length);
    for (const item of JUDGED) {
      const id = itemIds[item.id]!;
      const own = rows.filter((r) => r.item?.id === id);
      expect(own.map((r) => r.category).sort()).toEqual(CRITERIA.map(target).sort());
      for (const row of own) {
        expect(row.item).toEqual({ id, externalId: item.id, fields: { text: item.text, reference: item.reference } });
        expect(row.judgeValue).toBe(judge[row.category]![id]);
        expect(row.keyFrameIndex).toBeNull();
        expect(row.frameTimestamps).toHaveLength(4);
        expect(row.frameTimestamps).toEqual(await uniform(row.videoId));
      }
    }

    const csv = parseCsvTable(
      await new Response(
        (
          await projectExport(
            prisma,
            await projectAccess(prisma, owner, projectId, "export.read"),
            exportQuerySchema(await catalogFor(prisma, projectId)).parse({ format: "csv", runId }),
          )
        ).stream,
      ).text(),
    );
    if (!csv.ok) throw new Error(csv.error);
    expect(csv.columns.slice(EXPORT_BASE_COLUMNS.length, EXPORT_BASE_COLUMNS.length + 3)).toEqual([
      "item_id",
      "item_external_id",
      "item_fields",
    ]);
    expect(csv.rows).toHaveLength(rows.length);
    for (const item of JUDGED) {
      const own = csv.rows.filter((r) => r.values.get("item_id") === itemIds[item.id]);
      expect(own).toHaveLength(CRITERIA.length);
      for (const row of own) {
        expect(row.values.get("item_external_id")).toBe(item.id);
        expect(JSON.parse(row.values.get("item_fields")!)).toEqual({ text: item.text, reference: item.reference });
        expect(row.values.get("frame_timestamps")!.split(" ").map(Number)).toEqual(
          await uniform(row.values.get("video_id")!),
        );
      }
    }

    // A project with only video runs keeps the base header.
    const other = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Video runs only",
    });
    const plain = parseCsvTable(
      await new Response(
        (
          await projectExport(
            prisma,
            await projectAccess(prisma, owner, other.projectId, "export.read"),
            exportQuerySchema(await catalogFor(prisma, projectId)).parse({ format: "csv" }),
          )
        ).stream,
      ).text(),
    );
    if (!plain.ok) throw new Error(plain.error);
    expect(plain.columns).toEqual([...EXPORT_BASE_COLUMNS]);
  });
});

describe("calibrating a rubric run over items against a label set, and comparing its setups", () => {
  /** The lab's labels per JUDGED item. */
  const LAB = { faithful: [5, 1, 4, 2, 3], fluent: [1, 0, 1, 1, 0] };
  let labelSetId: string;

  it("a label set imported with the generic importer (its item column naming the item) is compared with the judge per item", async () => {
    const rows = ["video,annotator,target,value,item"];
    JUDGED.forEach((item, i) => {
      rows.push(`"${paths[item.video]}",lab,${target("faithful")},${LAB.faithful[i]},${item.id}`);
      rows.push(`"${paths[item.video]}",lab,${target("fluent")},${LAB.fluent[i]},${item.id}`);
    });
    // A label of an item criterion without its item is skipped with why.
    rows.push(`"${paths[0]}",lab,${target("faithful")},3,`);
    const imported = await importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: new TextEncoder().encode(rows.join("\n") + "\n"),
      fileName: "lab.csv",
      name: "Lab",
      dryRun: false,
    });
    expect(imported.plan.issues).toEqual([expect.objectContaining({ row: 2 * JUDGED.length + 2, column: "item" })]);
    expect(imported.plan.judgments).toEqual({
      [`${task.pipeline}:${target("faithful")}`]: JUDGED.length,
      [`${task.pipeline}:${target("fluent")}`]: JUDGED.length,
    });
    labelSetId = imported.labelSet!.id;
    const lab = labelSetReviewerId(labelSetId, "lab");
    for (const [criterion, level] of [
      ["faithful", "interval"],
      ["fluent", "nominal"],
    ] as const) {
      const report = await projectAgreement(
        prisma,
        await projectAccess(prisma, owner, projectId, "export.read"),
        agreementQuerySchema(await catalogFor(prisma, projectId)).parse({ runId, category: target(criterion) }),
      );
      const vsLab = report.humanVsJudge.reviewers.find((r) => r.reviewerId === lab)!;
      const pairs = JUDGED.map(
        (item, i) => [judge[target(criterion)]![itemIds[item.id]!]!, LAB[criterion][i]!] as const,
      );
      expect(vsLab.native.score!.n).toBe(JUDGED.length);
      expect(vsLab.native.score!.values.alpha).toBeCloseTo(alphaByHand(pairs, level), 10);
    }
  });

  it("compare setups takes two runs of the item rubric (two versions of its prompt) on a criterion, per item, against the label set or the reviewers' consensus", async () => {
    await saveRubricVersion(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), task.id, {
      definition: { ...CAPTIONS, prompt: `Look closely. ${CAPTIONS.prompt}` },
    });
    const setId = (await prisma.item.findUniqueOrThrow({ where: { id: itemIds.c1! } })).setId;
    const second = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: task.pipeline, endpointId, itemSetId: setId },
    );
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, second.id), second.id)).status).toBe("done");
    const secondValues = new Map(
      (await prisma.score.findMany({ where: { runId: second.id, category: target("faithful") } })).map((s) => [
        s.itemId,
        s.value,
      ]),
    );
    const query = (over: Record<string, string>) =>
      compareSetupsQuerySchema.parse({ runIds: `${runId},${second.id}`, iterations: "200", ...over });

    expect(compareTargetChoices(await catalogFor(prisma, projectId), [task.pipeline]).map((c) => c.id)).toEqual(
      CRITERIA.map(target),
    );
    const report = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      query({ labelSetId, target: target("faithful") }),
    );
    expect(report.compared).toEqual({
      task: task.pipeline,
      target: target("faithful"),
      label: "Faithfulness",
      kind: "score",
      per: "item",
    });
    expect(report.comparison.videoIds).toEqual(JUDGED.map((item) => itemIds[item.id]!).sort());
    // By hand: "good" is 3 or more (the midpoint of 1–5), for the lab and for each run.
    for (const [i, valueOf] of [
      (id: string) => judge[target("faithful")]![id]!,
      (id: string) => secondValues.get(id)!,
    ].entries()) {
      const right = JUDGED.filter((item, k) => valueOf(itemIds[item.id]!) >= 3 === LAB.faithful[k]! >= 3).length;
      expect(report.comparison.runs[i]!.n).toBe(JUDGED.length);
      expect(report.comparison.runs[i]!.accuracy).toBeCloseTo(right / JUDGED.length);
    }
    expect(report.differs.templates).toEqual([RUBRIC_STEP]);
    expect(report.templateDiffs[0]!.others[0]!.diff.some((line) => line.text.includes("Look closely."))).toBe(true);

    // Against Ann's and Bob's consensus on the boolean criterion: the items they disagree on have none.
    const consensus = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      query({ reference: "consensus", target: target("fluent") }),
    );
    expect(consensus.comparison.videoIds).toEqual(
      JUDGED.flatMap((item, i) => (HUMAN.ann.fluent[i] === HUMAN.bob.fluent[i] ? [itemIds[item.id]!] : [])).sort(),
    );
  });
});

describe("the list of an item run's values", () => {
  const list = async (actor: Actor, query: Record<string, string>, run = runId) =>
    rubricItemValues(
      prisma,
      await projectAccess(prisma, actor, projectId, "project.view"),
      run,
      rubricItemValuesQuerySchema.parse(query),
    );

  it("has a row per item of the run with its fields and a column per criterion, filtered on a criterion's range or the fields' text, and sorted", async () => {
    const all = (await list(owner, {}))!;
    expect(all.criteria.map((c) => [c.id, c.name, c.type])).toEqual([
      ["faithful", "Faithfulness", "numeric"],
      ["detail", "Detail", "categorical"],
      ["fluent", "Fluent", "boolean"],
    ]);
    expect(all.total).toBe(ITEMS.length);
    // Sorted by the item's id by default; the skipped item (no caption) is listed without values.
    expect(all.rows.map((r) => r.externalId)).toEqual(ITEMS.map((i) => i.id));
    const skipped = all.rows.find((r) => r.externalId === "c6")!;
    expect(Object.values(skipped.values)).toEqual([null, null, null]);
    for (const item of JUDGED) {
      const row = all.rows.find((r) => r.externalId === item.id)!;
      expect(row.fields).toEqual([
        { id: "text", label: "caption", value: item.text },
        { id: "reference", label: "reference caption", value: item.reference },
      ]);
      expect(row.values).toEqual(Object.fromEntries(CRITERIA.map((c) => [c, judge[target(c)]![itemIds[item.id]!]])));
      const detail = ["sparse", "fair", "rich"][row.values.detail!];
      expect(row.shown).toEqual({
        faithful: String(row.values.faithful),
        detail,
        fluent: row.values.fluent === 1 ? "yes" : "no",
      });
    }

    const faithful = (id: string) => judge[target("faithful")]![itemIds[id]!]!;
    const byFaithful = (await list(owner, { itemSort: "faithful", itemDir: "desc" }))!;
    const expected = [...JUDGED]
      .sort((a, b) => faithful(b.id) - faithful(a.id) || a.id.localeCompare(b.id))
      .map((i) => i.id);
    expect(byFaithful.rows.map((r) => r.externalId)).toEqual([...expected, "c6"]);

    const atLeast3 = (await list(owner, { itemCriterion: "faithful", itemMin: "3" }))!;
    expect(atLeast3.rows.map((r) => r.externalId)).toEqual(JUDGED.filter((i) => faithful(i.id) >= 3).map((i) => i.id));
    const fluent = (await list(owner, { itemCriterion: "fluent", itemMin: "1", itemMax: "1" }))!;
    expect(fluent.rows.map((r) => r.externalId)).toEqual(
      JUDGED.filter((i) => judge[target("fluent")]![itemIds[i.id]!] === 1).map((i) => i.id),
    );
    expect((await list(owner, { itemText: "CAR" }))!.rows.map((r) => r.externalId)).toEqual(["c3", "c4"]);
    // A criterion the run does not declare is not a filter or a sort: the defaults apply.
    const unknown = (await list(owner, { itemSort: "nope", itemCriterion: "nope", itemMin: "9" }))!;
    expect(unknown.query).toMatchObject({ sort: "item", criterion: null, min: null });
    expect(unknown.rows).toHaveLength(ITEMS.length);
    expect(() => rubricItemValuesQuerySchema.parse({ itemDir: "sideways" })).toThrow();
  });

  it("hides the values of a video a reviewer is reviewing blind, and is null for a run over videos", async () => {
    const cara = await makeUser();
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: cara.email,
      role: "reviewer",
    });
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Cara, blind",
      runId,
      filter: {},
      scope: rubricItemQueueTypeId(task.key),
      blind: true,
      reviewersPerItem: 1,
    });
    const { itemId } = await nextItem(prisma, await queueAccess(prisma, cara, queue.id, "scores.review"), queue.id);
    expect(itemId).toBeTruthy();
    const seen = (await list(cara, {}))!;
    expect(seen.rows.filter((r) => r.blind).length).toBeGreaterThan(0);
    for (const row of seen.rows.filter((r) => r.blind)) expect(Object.values(row.values)).toEqual([null, null, null]);
    expect((await list(owner, {}))!.rows.every((r) => !r.blind)).toBe(true);

    const videoTask = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition: {
        name: "Whole video",
        frames: { mode: "uniform", count: 4 },
        criteria: [CAPTIONS.criteria[2]!],
        prompt: "The images are {{frames}}\n{{criteria}}",
      },
    });
    const videoRun = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: videoTask.pipeline, endpointId },
    );
    expect(await list(owner, {}, videoRun.id)).toBeNull();
    await expect(list(owner, {}, "no-such-run")).rejects.toThrow("No such run");
  });
});
