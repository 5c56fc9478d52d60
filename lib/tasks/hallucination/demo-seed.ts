/**
 * The hallucination task's part of the demo (testkit/demo/seed-demo-project.ts): two runs of the pipeline over
 * the clips with different settings (Compare judge setups needs two), and a label set over the clips, so
 * Paper's table and Compare judge setups have a reference on the first visit; then a project of its own where an
 * alignment of the verdict succeeds (enough labelled clips for a split, a simulated bias the tuned settings undo).
 * Two simulated reviewers mark spans on the clips (seedDemoSpans), so the span agreement between people shows on the
 * first visit; the judge's spans come from the demo's first run itself, kept by the engine as each video finishes
 * (lib/spans/judge-spans-store.ts), so judge–people agreement fills in as the run ends.
 */
import path from "node:path";
import { type ProjectAccess, projectAccess } from "../../authz/permissions";
import type { DemoLink, DemoSeedContext, DemoSeedPart } from "../../../testkit/demo/demo-part";
import { CLIPS } from "../../../testkit/demo/demo-clips";
import type { PrismaClient } from "../../generated/prisma/client";
import { importGenericLabels } from "../../label-sets/label-sets";
import { createProject } from "../../projects/projects";
import { type FrameTimes, frameTimesFromTimestamps } from "../../frames/frame-times";
import { taskSpanLabels } from "../../spans/span-labels";
import { insertSpans, type NewSpan } from "../../spans/span-store";
import type { BoxKeyframe, SpanFields } from "../../spans/span-types";
import { secondsOf, spanProblem } from "../../spans/span-validation";
import { HALLUCINATION_TASK } from "./task";
import { simulatedReviewer } from "../../../testkit/demo/simulated-reviewer";

export const hallucinationDemo: DemoSeedPart = {
  async seed(context) {
    const { prisma, actor, projectId, endpointId, api, log } = context;
    const run = await api(`/api/v1/projects/${projectId}/runs`, { json: { pipeline: "hallucination", endpointId } });
    log(`started a simulated hallucination run ${String(run.id)}`);
    // A second setup to compare with the first (Compare judge setups needs two runs): the worst score
    // anywhere instead of the mean of the categories' worst, and a lower verdict threshold.
    const secondRun = await api(`/api/v1/projects/${projectId}/runs`, {
      json: { pipeline: "hallucination", endpointId, settings: DEMO_SECOND_RUN_SETTINGS },
    });
    log(`started a second simulated hallucination run ${String(secondRun.id)} (max-max, threshold 3)`);
    // A label set over the clips, so Paper's table and Compare judge setups have a reference on the first visit.
    // The seeder is an entry point, like a command: it checks the demo owner's permission once here.
    const labels = await importDemoLabelSet(prisma, await projectAccess(prisma, actor, projectId, "videos.import"));
    log(`imported the label set "${DEMO_LABEL_SET}" (${labels.labels} labels over ${labels.videos} clips)`);
    const spans = await seedDemoSpans(prisma, projectId);
    log(`marked ${spans} spans by ${SIMULATED_REVIEWERS.length} simulated reviewers`);
    const alignment = await seedAlignmentDemo(context);
    return [...(await compareLinks(prisma, projectId)), ...(await spansLinks(prisma, projectId)), alignment];
  },
  async resume({ prisma, actor, projectId, stubBaseUrl }) {
    const project = await prisma.project.findFirst({
      where: { name: DEMO_ALIGNMENT_PROJECT, members: { some: { userId: actor.userId } } },
      select: { id: true },
    });
    // The stub listens on a new port each time the demo starts.
    if (project)
      await prisma.judgeEndpoint.updateMany({
        where: { projectId: project.id, name: DEMO_ALIGNMENT_ENDPOINT },
        data: { baseUrl: stubBaseUrl },
      });
    // A demo seeded before it had spans gets them now; one that has them (even withdrawn) keeps what it has.
    const seeded = await prisma.span.count({
      where: { projectId, authorId: { in: await simulatedReviewerIds(prisma) } },
    });
    if (seeded === 0) await seedDemoSpans(prisma, projectId);
    return [
      ...(await compareLinks(prisma, projectId)),
      ...(await spansLinks(prisma, projectId)),
      ...(project ? [alignmentLink(project.id)] : []),
    ];
  },
};

export const DEMO_ALIGNMENT_PROJECT = "Alignment demo (simulated)";
const DEMO_ALIGNMENT_ENDPOINT = "Stub judge (simulated)";
const ALIGNMENT_GENERATORS = ["Demo model", "Demo model B"] as const;
const alignmentLink = (projectId: string): DemoLink => ({
  label: "an alignment of the verdict",
  path: `/projects/${projectId}/alignment`,
  note: "8 labelled clips; tuned settings undo a simulated bias",
});

/**
 * Which of the alignment demo's 8 clips hallucinate (by the stub's SIM_VERDICT_RULES: `[sim-verdict=1]` in the prompt)
 * and which the biased judge overrates (`[sim-inflate]`): three of the four that do not, so whatever the seeded split,
 * train and held-out each hold one. The verdict at the worst category ≥ 5 calls those hallucinations; tuned settings
 * (a threshold of 7 or 8) do not, on train and on held-out.
 */
export function alignmentDemoTags(index: number): { hallucinates: boolean; inflated: boolean } {
  const hallucinates = index % 2 === 0;
  return { hallucinates, inflated: !hallucinates && index !== 7 };
}

/** The alignment demo: 8 clips (4 from each of two generators), prompts tagged for the stub, verdict labels, an alignment started. */
async function seedAlignmentDemo({
  prisma,
  actor,
  api,
  uploadClips,
  stubBaseUrl,
  log,
}: DemoSeedContext): Promise<DemoLink> {
  const projectId = (await createProject(prisma, actor, { name: DEMO_ALIGNMENT_PROJECT })).id;
  for (const generator of ALIGNMENT_GENERATORS) await uploadClips(projectId, CLIPS.length, { generator });
  const videos = await prisma.video.findMany({
    where: { projectId },
    orderBy: { relativePath: "asc" },
    select: { id: true, prompt: true, relativePath: true },
  });
  const rows = ["video,annotator,target,value"];
  for (const [i, video] of videos.entries()) {
    const { hallucinates, inflated } = alignmentDemoTags(i);
    await prisma.video.update({
      where: { id: video.id },
      data: {
        prompt: `${video.prompt ?? "A clip"} [sim-verdict=${hallucinates ? 1 : 0}]${inflated ? " [sim-inflate]" : ""}`,
      },
    });
    rows.push(`"${video.relativePath}",demo,verdict,${hallucinates ? 1 : 0}`);
  }
  const labels = await importGenericLabels(prisma, await projectAccess(prisma, actor, projectId, "videos.import"), {
    file: new TextEncoder().encode(rows.join("\n") + "\n"),
    fileName: "alignment-demo-labels.csv",
    name: "Verdicts (simulated)",
    citation: "Written for the demo (simulated labels)",
    dryRun: false,
  });
  if (labels.plan.issues.length)
    throw new Error(`the alignment demo's labels did not import cleanly: ${JSON.stringify(labels.plan.issues)}`);
  const endpoint = await api(`/api/v1/projects/${projectId}/endpoints`, {
    json: {
      name: DEMO_ALIGNMENT_ENDPOINT,
      baseUrl: stubBaseUrl,
      model: "stub-vision",
      apiKey: null,
      maxConcurrency: 8,
      imageDetail: "low",
    },
  });
  const alignment = await api(`/api/v1/projects/${projectId}/alignments`, {
    json: {
      pipeline: "hallucination",
      targetId: "verdict",
      rewriteStepId: "static_hallucination",
      labels: { kind: "labelSet", id: labels.labelSet!.id },
      judgeEndpointId: endpoint.id,
      optimizerEndpointId: endpoint.id,
      maxCalls: 2000,
      maxCostUsd: 1,
      heldOutShare: 0.5,
      rewrites: 1,
    },
  });
  log(`started an alignment of the verdict ${String(alignment.id)} over ${videos.length} labelled clips`);
  return alignmentLink(projectId);
}

async function compareLinks(prisma: PrismaClient, projectId: string): Promise<DemoLink[]> {
  const comparePath = await demoComparePath(prisma, projectId);
  return comparePath ? [{ label: "the two judge setups compared", path: comparePath }] : [];
}

export const DEMO_LABEL_SET = "Demo labels (simulated)";
export const DEMO_SECOND_RUN_SETTINGS = { aggregation: "max-max", verdict: { on: "max_category", threshold: 3 } };

/** Compare judge setups with the demo's two hallucination runs ticked against its label set (null without them). */
async function demoComparePath(prisma: PrismaClient, projectId: string): Promise<string | null> {
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, pipeline: "hallucination" },
    orderBy: { createdAt: "asc" },
    select: { id: true },
    take: 2,
  });
  const labelSet = await prisma.labelSet.findFirst({
    where: { projectId, name: DEMO_LABEL_SET },
    select: { id: true },
  });
  if (runs.length < 2 || !labelSet) return null;
  return `/projects/${projectId}/calibration/compare?${new URLSearchParams({ runIds: runs.map((r) => r.id).join(","), labelSetId: labelSet.id })}`;
}

/** Imports demoLabels() into the demo project (whose videos carry CLIPS' file names) as the label set DEMO_LABEL_SET. */
export async function importDemoLabelSet(prisma: PrismaClient, access: ProjectAccess<"videos.import">) {
  const imported = await importGenericLabels(prisma, access, {
    file: new TextEncoder().encode(demoLabels()),
    fileName: "demo-labels.csv",
    name: DEMO_LABEL_SET,
    citation: "Written for the demo (simulated labels, not a published benchmark)",
    dryRun: false,
  });
  if (imported.plan.issues.length)
    throw new Error(`the demo label set did not import cleanly: ${JSON.stringify(imported.plan.issues)}`);
  const labels = Object.values(imported.plan.judgments).reduce((sum, n) => sum + n, 0);
  return { labelSetId: imported.labelSet!.id, labels, videos: imported.plan.matchedVideos };
}

/**
 * The demo's label set as a generic CSV (lib/label-sets/generic-labels.ts): per clip a hallucination verdict
 * and a few presence labels, two clips hallucinating and two not, so every cell of the paper's table has both
 * classes.
 */
export function demoLabels(): string {
  const rows = ["video,annotator,target,value"];
  CLIPS.forEach((clip, i) => {
    const video = path.basename(clip.path);
    const hallucinates = i % 2 === 0;
    rows.push(`"${video}",demo,verdict,${hallucinates ? 1 : 0}`);
    rows.push(`"${video}",demo,s1,${hallucinates ? 1 : 0}`);
    rows.push(`"${video}",demo,d1,${i === 0 ? 1 : 0}`);
    rows.push(`"${video}",demo,inconsistency,${i === 2 ? 1 : 0}`);
  });
  return rows.join("\n") + "\n";
}

/** The demo clips: 3 s at 24 fps (testkit/demo/demo-clip-upload.ts), when the video row does not say. */
const DEMO_FPS = 24;
const DEMO_FRAMES = 72;

const SIMULATED_REVIEWERS = [
  { email: "simulated-reviewer-a@framejury.local", name: "Reviewer A (simulated)" },
  { email: "simulated-reviewer-b@framejury.local", name: "Reviewer B (simulated)" },
] as const;

type DemoSpan = Pick<SpanFields, "label" | "startFrame" | "endFrame"> & { boxes?: BoxKeyframe[] };

const box = (frame: number, x: number, y: number): BoxKeyframe => ({ frame, x, y, w: 0.25, h: 0.3, enabled: true });

/**
 * Per clip (CLIPS order), what each reviewer marks. The clips the demo's label set calls hallucinating (the first and
 * the third, demoLabels) get spans from both; B also flags the second clip once.
 */
const DEMO_SPANS: readonly (readonly [DemoSpan[], DemoSpan[]])[] = [
  [
    [
      { label: "s1", startFrame: 10, endFrame: 24 },
      { label: "d1", startFrame: 30, endFrame: 59, boxes: [box(30, 0.1, 0.2), box(59, 0.55, 0.4)] },
    ],
    [
      { label: "s1", startFrame: 12, endFrame: 27 },
      { label: "d1", startFrame: 34, endFrame: 55, boxes: [box(34, 0.15, 0.22), box(55, 0.5, 0.38)] },
      { label: "s2", startFrame: 60, endFrame: 62 },
    ],
  ],
  [[], [{ label: "s4", startFrame: 5, endFrame: 6 }]],
  [
    [
      { label: "s1", startFrame: 40, endFrame: 52 },
      { label: "inconsistency", startFrame: 0, endFrame: 71 },
    ],
    [
      { label: "s1", startFrame: 38, endFrame: 50 },
      { label: "s1", startFrame: 66, endFrame: 71 },
      { label: "inconsistency", startFrame: 0, endFrame: 71 },
    ],
  ],
  [[], []],
];

/**
 * The clip's frame times: kept if the app has read them, else from the row's frame count and rate (the demo's clips
 * are encoded at a constant 24 fps, so frame i is at i / 24 s, exactly as their container says), and stored.
 */
async function demoFrameTimes(
  prisma: PrismaClient,
  video: { id: string; fps: number | null; frameCount: number | null },
): Promise<FrameTimes> {
  const stored = await prisma.videoFrameTimes.findUnique({ where: { videoId: video.id } });
  if (stored) return { timesS: stored.timesS, endS: stored.endS, variable: stored.variable };
  const fps = video.fps && video.fps > 0 ? video.fps : DEMO_FPS;
  const count = video.frameCount && video.frameCount > 0 ? video.frameCount : DEMO_FRAMES;
  const times = frameTimesFromTimestamps(Array.from({ length: count }, (_, i) => i / fps))!;
  await prisma.videoFrameTimes.upsert({
    where: { videoId: video.id },
    create: { videoId: video.id, timesS: [...times.timesS], endS: times.endS, variable: times.variable },
    update: {},
  });
  return times;
}

/** The first clip's video page (both reviewers' spans, one with boxes) once they are marked; none before. */
async function spansLinks(prisma: PrismaClient, projectId: string): Promise<DemoLink[]> {
  const span = await prisma.span.findFirst({
    where: {
      projectId,
      authorId: { in: await simulatedReviewerIds(prisma) },
      video: { fileName: path.basename(CLIPS[0]!.path) },
    },
    select: { videoId: true },
  });
  if (!span) return [];
  return [
    {
      label: "spans on a timeline",
      path: `/projects/${projectId}/videos/${span.videoId}`,
      note: "two simulated reviewers; the judge's as its run ends",
    },
  ];
}

async function simulatedReviewerIds(prisma: PrismaClient): Promise<string[]> {
  const emails = SIMULATED_REVIEWERS.map((r) => r.email);
  return (await prisma.user.findMany({ where: { email: { in: emails } }, select: { id: true } })).map((u) => u.id);
}

/** Seeds the two simulated reviewers' spans on the demo project's clips, in one transaction. Returns how many. */
async function seedDemoSpans(prisma: PrismaClient, projectId: string): Promise<number> {
  const reviewerIds: string[] = [];
  for (const reviewer of SIMULATED_REVIEWERS) reviewerIds.push(await simulatedReviewer(prisma, projectId, reviewer));
  const labels = taskSpanLabels(HALLUCINATION_TASK);
  const byReviewer: NewSpan[][] = reviewerIds.map(() => []);
  for (const [i, clip] of CLIPS.entries()) {
    const video = await prisma.video.findFirst({
      where: { projectId, fileName: path.basename(clip.path) },
      orderBy: { createdAt: "asc" },
      select: { id: true, fps: true, frameCount: true },
    });
    if (!video) continue;
    const times = await demoFrameTimes(prisma, video);
    DEMO_SPANS[i]!.forEach((spans, r) => {
      for (const span of spans) {
        const fields: SpanFields = { task: HALLUCINATION_TASK.id, itemId: "", note: "", boxes: [], ...span };
        const problem = spanProblem(fields, { times, labels });
        if (problem) throw new Error(`the demo's span on ${clip.path} is not valid: ${problem}`);
        byReviewer[r]!.push({
          ...fields,
          ...secondsOf(fields, times),
          projectId,
          videoId: video.id,
          authorKind: "reviewer",
          authorId: reviewerIds[r]!,
        });
      }
    });
  }
  return prisma.$transaction(async (tx) => {
    let written = 0;
    for (const [r, spans] of byReviewer.entries()) written += await insertSpans(tx, spans, reviewerIds[r]!);
    return written;
  });
}
