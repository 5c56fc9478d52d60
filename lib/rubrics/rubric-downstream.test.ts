/**
 * Issue 25 item 4: everything downstream of a rubric task works from its declaration, with no code. Two rubric
 * tasks are created as data in a project and run through the stub LLM: "Look" judges each video once (a numeric
 * 1–5 criterion, an ordered categorical one and a boolean one), "Defects" judges each cluster of neighbouring
 * frames on a 0–10 scale with a presence rule. Then the video list filters and sorts on their metrics, a blind
 * full queue and a presence-first queue review them, adjudication settles a disagreement, the agreement report
 * compares each criterion at its own measurement level (numbers counted here by hand), a label set imported with
 * the generic importer calibrates them, and the export writes their rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectExport } from "../agreement/export";
import { projectAgreement } from "../agreement/load";
import { agreementQuerySchema, exportQuerySchema } from "../agreement/report-filter";
import { adjudicationQuerySchema, adjudicationQueue, setGold } from "../adjudication/adjudication";
import type { Actor } from "../auth/actor";
import { compareSetupsQuerySchema } from "../calibration/calibration.validation";
import { compareSetupsReport } from "../calibration/compare-setups-load";
import { queueAccess } from "@/testkit/testing/queue-access";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { createEndpoint } from "../judge/endpoints/endpoints";
import { createRun, getRunStatus } from "../judge/runs/runs";
import { importGenericLabels } from "../label-sets/label-sets";
import { labelSetReviewerId } from "../label-sets/label-set-reviewer";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { addMember } from "../projects/projects";
import { createQueue } from "../queues/create-queue";
import { getQueueItem } from "../queues/get-queue-item";
import { nextItem } from "../queues/next-item";
import { submitItem } from "../queues/submit-item";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { browseVideos } from "../videos/browse-videos";
import { videoListQuerySchema } from "../videos/video-filter";
import { rubricMetricId, rubricTargetId } from "./rubric-declaration";
import type { RubricDefinitionInput } from "./rubric-definition";
import { createRubricTask, saveRubricVersion } from "./rubric-tasks";
import { builtInCatalogue, catalogFor } from "../task-modules/task-catalogue";
import { accessOfRun } from "../../testkit/testing/record-access";

const LOOK: RubricDefinitionInput = {
  name: "Look",
  description: "How the video looks, once per video.",
  frames: { mode: "uniform", count: 4 },
  criteria: [
    {
      id: "quality",
      name: "Quality",
      type: "numeric",
      min: 1,
      max: 5,
      step: 1,
      positiveAtLeast: 4,
      positiveLabel: "good",
      definition: "1 unwatchable … 5 flawless.",
    },
    {
      id: "motion",
      name: "Motion",
      type: "categorical",
      ordered: true,
      labels: [
        { label: "jerky", definition: "Stutters." },
        { label: "uneven", definition: "Some stutter." },
        { label: "smooth", definition: "No stutter." },
      ],
      definition: "How smoothly things move.",
    },
    {
      id: "watermark",
      name: "Watermark",
      type: "boolean",
      higherIsBetter: false,
      positiveLabel: "watermarked",
      definition: "A watermark or logo is visible.",
    },
  ],
  prompt: "The images are {{frames}} The video's prompt: {{prompt}}\n\nRate it on:\n{{criteria}}",
};

const DEFECTS: RubricDefinitionInput = {
  name: "Defects",
  frames: { mode: "each_cluster" },
  criteria: [
    {
      id: "physics",
      name: "Physics violation",
      type: "numeric",
      min: 0,
      max: 10,
      step: 1,
      higherIsBetter: false,
      aggregation: "max",
      presence: { threshold: 4, absentValue: 0 },
      definition: "How strongly these frames break everyday physics, 0 none to 10 nonsense.",
    },
  ],
  prompt: "The images are {{frames}}\n\nRate them on:\n{{criteria}}",
};

const VIDEOS = 6;
/** What Ann and Bob answer in the blind queue, per video (in videoIds order). */
const HUMAN = {
  ann: { quality: [1, 2, 3, 4, 5, 3], motion: [0, 1, 2, 2, 1, 0], watermark: [0, 1, 0, 1, 0, 0] },
  bob: { quality: [1, 4, 3, 4, 5, 2], motion: [0, 1, 2, 1, 1, 0], watermark: [0, 1, 0, 0, 0, 1] },
};
/** Ann's presence of a physics violation per video, and her values of its two clusters where she says present. */
const ANN_PRESENT = [1, 0, 1, 0, 1, 0] as const;
const ANN_PHYSICS = [6, 2];
/** The imported label set's labels per video. */
const LAB = { quality: [2, 2, 4, 5, 1, 3], watermark: [1, 0, 0, 1, 0, 1], physicsPresent: [0, 1, 1, 0, 0, 1] };
const KEY_FRAMES = 2;

let stub: StubServer;
let owner: Actor;
let ann: Actor;
let bob: Actor;
let projectId: string;
let videoIds: string[];
let look: { id: string; key: number; pipeline: string; runId: string };
let defects: { id: string; key: number; pipeline: string; runId: string };
let endpointId: string;
let labelSetId: string;
/** The judge's per-video value of each Look criterion (its metric id → video id → value). */
const lookValue: Record<string, Record<string, number>> = {};
/** The judge's Defects scores per video, by cluster. */
const physicsScores: Record<string, number[]> = {};

const lookTarget = (criterion: string) => rubricTargetId(look.key, criterion);
const lookMetric = (criterion: string) => rubricMetricId(look.key, criterion);

async function readAll(stream: ReadableStream<Uint8Array | string>): Promise<string> {
  let text = "";
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += typeof value === "string" ? value : new TextDecoder().decode(value);
  }
}

/**
 * Krippendorff's alpha of two raters who rated every unit, from its definition (coincidences of the 2n values):
 * 1 − (N − 1)·Σ_units 2·δ²(a, b) / Σ_{i,j} δ²(v_i, v_j), with δ² of the level.
 */
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
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: VIDEOS,
    keyFrames: KEY_FRAMES,
    uniformFrames: 4,
    name: "Rubric downstream",
  }));
  videoIds.sort();
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
  const deps = { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines };
  const runOf = async (definition: RubricDefinitionInput) => {
    const created = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      definition,
    });
    const run = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
      pipeline: created.pipeline,
      endpointId: endpoint.id,
    });
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).status).toBe("done");
    return { id: created.id, key: created.key, pipeline: created.pipeline, runId: run.id };
  };
  look = await runOf(LOOK);
  defects = await runOf(DEFECTS);
  for (const metric of await prisma.runMetric.findMany({ where: { runId: look.runId } }))
    (lookValue[metric.metric] ??= {})[metric.videoId] = metric.value!;
  for (const score of await prisma.score.findMany({ where: { runId: defects.runId }, orderBy: { scopeIndex: "asc" } }))
    (physicsScores[score.videoId] ??= []).push(score.value);
});
afterAll(async () => stub?.close());

describe("a rubric task downstream of its declaration", () => {
  it("declares each criterion at its measurement level and scores every video", async () => {
    const task = (await catalogFor(prisma, projectId)).findTask(look.pipeline)!;
    expect(task.targets.map((t) => [t.id, t.level, t.scope])).toEqual([
      [lookTarget("quality"), "interval", "video"],
      [lookTarget("motion"), "ordinal", "video"],
      [lookTarget("watermark"), "nominal", "video"],
    ]);
    expect((await catalogFor(prisma, projectId)).findTask(defects.pipeline)!.presence).toMatchObject({
      of: [rubricTargetId(defects.key, "physics")],
      absentValue: 0,
      defaultThreshold: 4,
    });
    for (const criterion of ["quality", "motion", "watermark"])
      expect(Object.keys(lookValue[lookMetric(criterion)]!).sort()).toEqual(videoIds);
    for (const id of videoIds) expect(physicsScores[id]).toHaveLength(KEY_FRAMES);
  });

  it("the video list shows its metrics as columns, and filters and sorts on them", async () => {
    const browse = async (query: Record<string, string>) =>
      (
        await browseVideos(
          prisma,
          await projectAccess(prisma, owner, projectId, "project.view"),
          videoListQuerySchema(await catalogFor(prisma, projectId)).parse({ runId: look.runId, ...query }),
        )
      ).videos;
    const listed = await browse({});
    // A boolean criterion's column is a yes/no metric: the list gives it as a boolean.
    for (const video of listed) {
      expect(video.scores).toEqual({
        [lookMetric("quality")]: lookValue[lookMetric("quality")]![video.id],
        [lookMetric("motion")]: lookValue[lookMetric("motion")]![video.id],
        [lookMetric("watermark")]: lookValue[lookMetric("watermark")]![video.id] === 1,
      });
    }
    const quality = lookValue[lookMetric("quality")]!;
    const ids = (videos: { id: string }[]) => videos.map((v) => v.id).sort();
    expect(ids(await browse({ [`min.${lookMetric("quality")}`]: "3" }))).toEqual(
      videoIds.filter((id) => quality[id]! >= 3),
    );
    expect(ids(await browse({ [`max.${lookMetric("quality")}`]: "2" }))).toEqual(
      videoIds.filter((id) => quality[id]! <= 2),
    );
    expect((await browse({ sort: lookMetric("quality"), dir: "desc" })).map((v) => quality[v.id])).toEqual(
      videoIds.map((id) => quality[id]).sort((a, b) => b! - a!),
    );
    // A categorical metric filters by its label: the ordered label "smooth" is stored as 2, a boolean's "yes" as 1.
    const motion = lookValue[lookMetric("motion")]!;
    expect(ids(await browse({ [`is.${lookMetric("motion")}`]: "smooth" }))).toEqual(
      videoIds.filter((id) => motion[id] === 2),
    );
    const watermark = lookValue[lookMetric("watermark")]!;
    expect(ids(await browse({ [`is.${lookMetric("watermark")}`]: "yes" }))).toEqual(
      videoIds.filter((id) => watermark[id] === 1),
    );
    // Out of the criterion's scale: refused with a clear error, not an empty list.
    expect(
      videoListQuerySchema(await catalogFor(prisma, projectId)).safeParse({ [`min.${lookMetric("quality")}`]: "7" })
        .success,
    ).toBe(false);
    // Per-cluster criterion: the video's value is the declared aggregation (max) of its clusters.
    const physics = (
      await browseVideos(
        prisma,
        await projectAccess(prisma, owner, projectId, "project.view"),
        videoListQuerySchema(await catalogFor(prisma, projectId)).parse({ runId: defects.runId }),
      )
    ).videos;
    for (const video of physics)
      expect(video.scores?.[rubricMetricId(defects.key, "physics")]).toBe(Math.max(...physicsScores[video.id]!));
  });

  it("a blind full queue withholds the judge's values until the reviewer submits, and saves each criterion's judgment", async () => {
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Look, blind",
      runId: look.runId,
      filter: {},
      scope: "scores",
      blind: true,
      reviewersPerItem: 2,
    });
    expect(queue.itemCount).toBe(VIDEOS);
    for (const [reviewer, values] of [
      [ann, HUMAN.ann],
      [bob, HUMAN.bob],
    ] as const) {
      for (let n = 0; n < VIDEOS; n++) {
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
        const i = videoIds.indexOf(item.video.id);
        expect(item.blind).toBe(true);
        expect(item).not.toHaveProperty("metrics");
        expect(item.targets.map((t) => [t.category, t.label, t.min, t.max])).toEqual([
          [lookTarget("quality"), "Quality", 1, 5],
          [lookTarget("motion"), "Motion", 0, 2],
          [lookTarget("watermark"), "Watermark", 0, 1],
        ]);
        for (const target of item.targets) expect(target).not.toHaveProperty("judge");
        const judgments = (["quality", "motion", "watermark"] as const).map((criterion) => ({
          target: item.targets.find((t) => t.category === lookTarget(criterion))!.key,
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
        // Submitted, the item shows the judge's values.
        const after = await getQueueItem(
          prisma,
          await queueAccess(prisma, reviewer, queue.id, "scores.review"),
          queue.id,
          itemId!,
        );
        expect(after.blind).toBe(false);
        expect(after.targets.map((t) => t.judge)).toEqual(
          ["quality", "motion", "watermark"].map((c) => lookValue[lookMetric(c)]![item.video.id]),
        );
      }
      expect(
        (await nextItem(prisma, await queueAccess(prisma, reviewer, queue.id, "scores.review"), queue.id)).itemId,
      ).toBeNull();
    }
    const saved = await prisma.humanJudgment.findMany({ where: { projectId, task: look.pipeline } });
    expect(saved).toHaveLength(2 * 3 * VIDEOS);
    for (const row of saved) {
      const criterion = row.target.slice(`r${look.key}_`.length) as "quality" | "motion" | "watermark";
      const who = row.reviewerId === ann.userId ? "ann" : "bob";
      expect([row.targetType, row.runId, row.value, row.judgeValue]).toEqual([
        "score",
        look.runId,
        HUMAN[who][criterion][videoIds.indexOf(row.videoId)],
        lookValue[lookMetric(criterion)]![row.videoId],
      ]);
    }
  });

  it("a presence-first queue asks whether the criterion's defect is present, then values where present", async () => {
    const physics = rubricTargetId(defects.key, "physics");
    const queue = await createQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      name: "Defects, presence",
      runId: defects.runId,
      filter: {},
      scope: "scores",
      mode: "presence",
    });
    for (let n = 0; n < VIDEOS; n++) {
      const { itemId } = await nextItem(prisma, await queueAccess(prisma, ann, queue.id, "scores.review"), queue.id);
      const item = await getQueueItem(
        prisma,
        await queueAccess(prisma, ann, queue.id, "scores.review"),
        queue.id,
        itemId!,
      );
      const id = item.video.id;
      const i = videoIds.indexOf(id);
      const judgePresent = Math.max(...physicsScores[id]!) >= 4;
      expect(item.presence).toMatchObject({ absentValue: 0, threshold: 4 });
      expect(item.presence!.categories.map((c) => [c.id, c.label, c.targetKeys.length, c.judge])).toEqual([
        [physics, "Physics violation", KEY_FRAMES, judgePresent ? 1 : 0],
      ]);
      const present = ANN_PRESENT[i]!;
      const judgments =
        present || judgePresent
          ? item.targets.map((t, scope) => ({ target: t.key, value: present ? ANN_PHYSICS[scope]! : 0 }))
          : [];
      await submitItem(prisma, await queueAccess(prisma, ann, queue.id, "scores.review"), queue.id, itemId!, {
        presence: [{ category: physics, value: present }],
        judgments,
      });
    }
    const rows = await prisma.humanJudgment.findMany({
      where: { reviewerId: ann.userId, task: defects.pipeline },
      orderBy: [{ videoId: "asc" }, { targetType: "asc" }, { scopeIndex: "asc" }],
    });
    expect(rows.map((r) => [r.videoId, r.targetType, r.scopeIndex, r.value])).toEqual(
      videoIds.flatMap((id, i) => [
        [id, "presence", 0, ANN_PRESENT[i]],
        ...Array.from({ length: KEY_FRAMES }, (_, scope) => [
          id,
          "score",
          scope,
          ANN_PRESENT[i] ? ANN_PHYSICS[scope] : 0,
        ]),
      ]),
    );
  });

  it("adjudication lists the criteria the reviewers disagree on, and takes a gold value", async () => {
    const queue = await adjudicationQueue(
      prisma,
      owner,
      projectId,
      adjudicationQuerySchema.parse({ runId: look.runId }),
    );
    const found = queue.items.map((item) => [item.target, videoIds.indexOf(item.video.id), item.disagreement]).sort();
    // By hand from HUMAN: quality 2 vs 4 (v1) and 3 vs 2 (v5) spread by the 0.8 gap of a 1–5 scale; motion 2 vs 1 (v3);
    // watermark yes vs no (v3, v5) are ties of a nominal target.
    expect(found).toEqual(
      [
        [lookTarget("motion"), 3, "spread"],
        [lookTarget("quality"), 1, "spread"],
        [lookTarget("quality"), 5, "spread"],
        [lookTarget("watermark"), 3, "tie"],
        [lookTarget("watermark"), 5, "tie"],
      ].sort(),
    );
    const motion = queue.items.find((item) => item.target === lookTarget("motion"))!;
    expect(motion.scale).toMatchObject({
      kind: "categorical",
      values: [
        { value: 0, label: "jerky" },
        { value: 1, label: "uneven" },
        { value: 2, label: "smooth" },
      ],
    });
    expect(motion.judge).toMatchObject({ runId: look.runId, value: lookValue[lookMetric("motion")]![videoIds[3]!] });
    await expect(setGold(prisma, owner, projectId, { targetKey: motion.targetKey, value: 7 })).rejects.toThrow();
    const gold = await setGold(prisma, owner, projectId, {
      targetKey: motion.targetKey,
      value: 2,
      note: "smooth on a second look",
    });
    expect(gold).toMatchObject({ value: 2, version: 1 });
  });

  it("the agreement report compares each criterion at its own measurement level, with the numbers counted by hand", async () => {
    const cases = [
      { criterion: "quality", level: "interval", other: "ordinal", positive: (v: number) => v >= 4 },
      { criterion: "motion", level: "ordinal", other: "nominal", positive: (v: number) => v === 2 },
      { criterion: "watermark", level: "nominal", other: null, positive: (v: number) => v === 1 },
    ] as const;
    for (const { criterion, level, other, positive } of cases) {
      const report = await projectAgreement(
        prisma,
        await projectAccess(prisma, owner, projectId, "export.read"),
        agreementQuerySchema(await catalogFor(prisma, projectId)).parse({
          runId: look.runId,
          category: lookTarget(criterion),
        }),
      );
      const judge = videoIds.map((id) => lookValue[lookMetric(criterion)]![id]!);
      const annPairs = judge.map((j, i) => [j, HUMAN.ann[criterion][i]!] as const);
      const vsAnn = report.humanVsJudge.reviewers.find((r) => r.reviewerId === ann.userId)!;
      expect(vsAnn.native.score!.n).toBe(VIDEOS);
      expect(vsAnn.native.score!.values.mae).toBeCloseTo(
        annPairs.reduce((sum, [j, h]) => sum + Math.abs(j - h), 0) / VIDEOS,
      );
      expect(vsAnn.native.score!.values.alpha).toBeCloseTo(alphaByHand(annPairs, level), 10);
      const count = (h: boolean, j: boolean) =>
        annPairs.filter(([jv, hv]) => positive(hv) === h && positive(jv) === j).length;
      expect(vsAnn.binary.confusion).toEqual({
        tp: count(true, true),
        fp: count(false, true),
        fn: count(true, false),
        tn: count(false, false),
      });
      // Among the reviewers, at the same level.
      const between = HUMAN.ann[criterion].map((a, i) => [a, HUMAN.bob[criterion][i]!] as const);
      expect(report.humanVsHuman.native.score!.values.alpha).toBeCloseTo(alphaByHand(between, level), 10);
      // The level matters for these fixed values: the other level's alpha is another number, so the report's
      // number above tells the levels apart. (Checked on the reviewers' fixed values, not the judge's: the stub's
      // values follow the videos' random ids, and for some ids two levels happen to give the same alpha.)
      if (other) expect(Math.abs(alphaByHand(between, other) - alphaByHand(between, level))).toBeGreaterThan(1e-6);
      expect(report.breakdowns.category.map((row) => [row.key, row.items])).toEqual([[lookTarget(criterion), VIDEOS]]);
    }
    // Unfiltered, the report's category breakdown gives each criterion's row its own level, and α at it against
    // the reviewers' consensus (interval and ordinal: the median of two, their mean; nominal: a tie has none).
    const all = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(await catalogFor(prisma, projectId)).parse({ runId: look.runId }),
    );
    for (const { criterion, level } of cases) {
      const row = all.breakdowns.category.find((r) => r.key === lookTarget(criterion))!;
      const consensus = videoIds.map((_, i) => {
        const [a, b] = [HUMAN.ann[criterion][i]!, HUMAN.bob[criterion][i]!];
        return level === "nominal" ? (a === b ? a : null) : (a + b) / 2;
      });
      const pairs = videoIds.flatMap((id, i) =>
        consensus[i] === null ? [] : [[lookValue[lookMetric(criterion)]![id]!, consensus[i]!] as const],
      );
      expect(row.level).toBe(level);
      expect(row.judge.n).toBe(pairs.length);
      expect(row.judge.values.alpha).toBeCloseTo(alphaByHand(pairs, level), 10);
    }
    // A group of several criteria has no one level.
    expect(all.breakdowns.model.map((row) => [row.level, row.judge.values.alpha])).toEqual([[null, null]]);

    // The gold value of motion on v3 is what the judge is compared with under truth=gold.
    const gold = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(await catalogFor(prisma, projectId)).parse({
        runId: look.runId,
        category: lookTarget("motion"),
        truth: "gold",
      }),
    );
    expect(gold.humanVsJudge.gold!.n).toBe(1);
    expect(gold.humanVsJudge.gold!.native.score!.values.mae).toBeCloseTo(
      Math.abs(lookValue[lookMetric("motion")]![videoIds[3]!]! - 2),
    );
  });

  it("the agreement report's presence sweep compares the reviewer's presence with the judge's (max over clusters ≥ t)", async () => {
    const report = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(await catalogFor(prisma, projectId)).parse({ runId: defects.runId }),
    );
    const presence = report.presence.find((p) => p.taskId === defects.pipeline)!;
    expect(presence).toMatchObject({ threshold: 4, defaultThreshold: 4 });
    const curve = presence.curves.find((c) => c.human === ann.userId)!;
    const judgePresent = videoIds.map((id) => Math.max(...physicsScores[id]!) >= 4);
    const count = (h: number, j: boolean) =>
      videoIds.filter((_, i) => ANN_PRESENT[i] === h && judgePresent[i] === j).length;
    expect(curve.chosen).toMatchObject({
      threshold: 4,
      tp: count(1, true),
      fp: count(0, true),
      fn: count(1, false),
      tn: count(0, false),
    });
  });

  it("a label set imported with the generic importer calibrates the rubric's criteria", async () => {
    const videos = await prisma.video.findMany({
      where: { id: { in: videoIds } },
      select: { id: true, relativePath: true },
    });
    const pathOf = new Map(videos.map((v) => [v.id, v.relativePath]));
    const rows = ["video,annotator,target,value"];
    videoIds.forEach((id, i) => {
      rows.push(`"${pathOf.get(id)}",lab,${lookTarget("quality")},${LAB.quality[i]}`);
      rows.push(`"${pathOf.get(id)}",lab,${lookTarget("watermark")},${LAB.watermark[i]}`);
      rows.push(`"${pathOf.get(id)}",lab,${rubricTargetId(defects.key, "physics")},${LAB.physicsPresent[i]}`);
    });
    rows.push(`"${pathOf.get(videoIds[0]!)}",lab,${lookTarget("quality")},9`);
    const imported = await importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: new TextEncoder().encode(rows.join("\n") + "\n"),
      fileName: "lab.csv",
      name: "Lab",
      dryRun: false,
    });
    // The out-of-scale row is skipped with its line and why; every other row is imported.
    expect(imported.plan.issues).toEqual([
      expect.objectContaining({ row: 3 * VIDEOS + 2, column: "value", cell: "9" }),
    ]);
    expect(imported.plan.judgments).toEqual({
      [`${look.pipeline}:${lookTarget("quality")}`]: VIDEOS,
      [`${look.pipeline}:${lookTarget("watermark")}`]: VIDEOS,
      [`${defects.pipeline}:${rubricTargetId(defects.key, "physics")}`]: VIDEOS,
    });
    labelSetId = imported.labelSet!.id;
    const lab = labelSetReviewerId(labelSetId, "lab");

    const quality = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(await catalogFor(prisma, projectId)).parse({
        runId: look.runId,
        category: lookTarget("quality"),
      }),
    );
    const vsLab = quality.humanVsJudge.reviewers.find((r) => r.reviewerId === lab)!;
    const pairs = videoIds.map((id, i) => [lookValue[lookMetric("quality")]![id]!, LAB.quality[i]!] as const);
    expect(vsLab.native.score!.n).toBe(VIDEOS);
    expect(vsLab.native.score!.values.mae).toBeCloseTo(
      pairs.reduce((sum, [j, h]) => sum + Math.abs(j - h), 0) / VIDEOS,
    );
    expect(vsLab.native.score!.values.alpha).toBeCloseTo(alphaByHand(pairs, "interval"), 10);

    const presence = await projectAgreement(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      agreementQuerySchema(await catalogFor(prisma, projectId)).parse({ runId: defects.runId }),
    );
    const curve = presence.presence.find((p) => p.taskId === defects.pipeline)!.curves.find((c) => c.human === lab)!;
    const judgePresent = videoIds.map((id) => Math.max(...physicsScores[id]!) >= 4);
    const count = (h: number, j: boolean) =>
      videoIds.filter((_, i) => LAB.physicsPresent[i] === h && judgePresent[i] === j).length;
    expect(curve.chosen).toMatchObject({
      tp: count(1, true),
      fp: count(0, true),
      fn: count(1, false),
      tn: count(0, false),
    });
  });

  it("the export writes each criterion's rows with the judge's and the reviewers' values", async () => {
    const { stream } = await projectExport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      exportQuerySchema(await catalogFor(prisma, projectId)).parse({ runId: look.runId, format: "jsonl" }),
    );
    const rows = (await readAll(stream))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const reviewsOf = (row: Record<string, unknown>) =>
      (row.reviews as { reviewerId: string; value: number }[])
        .filter((r) => r.reviewerId === ann.userId || r.reviewerId === bob.userId)
        .map((r) => [r.reviewerId === ann.userId ? "ann" : "bob", r.value])
        .sort();
    expect(
      rows.map((row) => [row.videoId, row.runId, row.step, row.category, row.judgeValue, reviewsOf(row)]).sort(),
    ).toEqual(
      videoIds
        .flatMap((id, i) =>
          (["quality", "motion", "watermark"] as const).map((c) => [
            id,
            look.runId,
            "judge",
            lookTarget(c),
            lookValue[lookMetric(c)]![id],
            [
              ["ann", HUMAN.ann[c][i]],
              ["bob", HUMAN.bob[c][i]],
            ],
          ]),
        )
        .sort(),
    );
    const csv = await readAll(
      (
        await projectExport(
          prisma,
          await projectAccess(prisma, owner, projectId, "export.read"),
          exportQuerySchema(await catalogFor(prisma, projectId)).parse({ runId: look.runId, format: "csv" }),
        )
      ).stream,
    );
    const lines = csv.trim().split("\n");
    expect(lines).toHaveLength(1 + 3 * VIDEOS);
    expect(lines.filter((line) => line.includes(lookTarget("motion")))).toHaveLength(VIDEOS);
  });

  it("compare setups takes two runs of the rubric task (two versions of its prompt), on a criterion, against the label set or the reviewers", async () => {
    await saveRubricVersion(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), look.id, {
      definition: { ...LOOK, prompt: `Look closely. ${LOOK.prompt}` },
    });
    const second = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: look.pipeline, endpointId },
    );
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, second.id), second.id)).status).toBe("done");
    const secondQuality = new Map(
      (await prisma.score.findMany({ where: { runId: second.id, category: lookTarget("quality") } })).map((s) => [
        s.videoId,
        s.value,
      ]),
    );
    const firstQuality = new Map(videoIds.map((id) => [id, lookValue[lookMetric("quality")]![id]!]));
    const query = (over: Record<string, string>) =>
      compareSetupsQuerySchema.parse({ runIds: `${look.runId},${second.id}`, iterations: "200", ...over });

    const report = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      query({ labelSetId, target: lookTarget("quality") }),
    );
    expect(report.compared).toEqual({
      task: look.pipeline,
      target: lookTarget("quality"),
      label: "Quality",
      kind: "score",
    });
    expect(report.comparison.videoIds).toEqual(videoIds);
    // By hand: "good" is 4 or more (the criterion's positiveAtLeast), for the lab and for each run.
    const truth = LAB.quality.map((v) => v >= 4);
    for (const [i, values] of [firstQuality, secondQuality].entries()) {
      const verdict = videoIds.map((id) => values.get(id)! >= 4);
      const row = report.comparison.runs[i]!;
      expect(row.n).toBe(VIDEOS);
      expect(row.accuracy).toBeCloseTo(verdict.filter((v, k) => v === truth[k]).length / VIDEOS);
      const tp = verdict.filter((v, k) => v && truth[k]).length;
      const wrong = verdict.filter((v, k) => v !== truth[k]).length;
      expect(row.f1).toBe(2 * tp + wrong === 0 ? null : (2 * tp) / (2 * tp + wrong));
    }
    // The two runs pinned different versions: their prompts differ, and the report says which step's template.
    expect(report.differs.templates).toEqual(["judge"]);

    // Against the reviewers' consensus on the boolean criterion: their ties (v3, v5) have no consensus.
    const consensus = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      query({ reference: "consensus", target: lookTarget("watermark") }),
    );
    expect(consensus.comparison.videoIds).toEqual(
      videoIds.filter((_, i) => HUMAN.ann.watermark[i] === HUMAN.bob.watermark[i]),
    );

    // Without a target the task has no verdict to fall back on: the error names the targets it can compare on.
    await expect(
      compareSetupsReport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), query({ labelSetId })),
    ).rejects.toThrow(new RegExp(`${lookTarget("quality")}, ${lookTarget("motion")}, ${lookTarget("watermark")}`));
    // Runs of two tasks are not setups of one judge.
    await expect(
      compareSetupsReport(
        prisma,
        await projectAccess(prisma, owner, projectId, "export.read"),
        query({ runIds: `${look.runId},${defects.runId}`, labelSetId }),
      ),
    ).rejects.toThrow(/runs of one task/);
    // The per-cluster criterion compares on its presence (highest cluster score ≥ 4), against the lab's presence labels.
    await saveRubricVersion(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), defects.id, {
      definition: { ...DEFECTS, prompt: `Look closely. ${DEFECTS.prompt}` },
    });
    const secondDefects = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: defects.pipeline, endpointId },
    );
    const presence = await compareSetupsReport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      query({
        runIds: `${defects.runId},${secondDefects.id}`,
        labelSetId,
        target: rubricTargetId(defects.key, "physics"),
      }),
    );
    expect(presence.compared).toMatchObject({ kind: "presence", label: "Physics violation present" });
    const judgePresent = videoIds.map((id) => Math.max(...physicsScores[id]!) >= 4);
    expect(presence.comparison.runs[0]!.accuracy).toBeCloseTo(
      judgePresent.filter((p, i) => p === (LAB.physicsPresent[i] === 1)).length / VIDEOS,
    );
  });
});
