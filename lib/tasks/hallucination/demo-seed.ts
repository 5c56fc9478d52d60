/**
 * The hallucination task's part of the demo (testkit/demo/seed-demo-project.ts): two runs of the pipeline over
 * the clips with different settings (Compare judge setups needs two), and a label set over the clips, so
 * Paper's table and Compare judge setups have a reference on the first visit; then a project of its own where an
 * alignment of the verdict succeeds (enough labelled clips for a split, a simulated bias the tuned settings undo).
 */
import path from "node:path";
import type { Actor } from "../../auth/actor";
import type { DemoLink, DemoSeedContext, DemoSeedPart } from "../../../testkit/demo/demo-part";
import { CLIPS } from "../../../testkit/demo/demo-clips";
import type { PrismaClient } from "../../generated/prisma/client";
import { importGenericLabels } from "../../label-sets/label-sets";
import { createProject } from "../../projects/projects";

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
    const labels = await importDemoLabelSet(prisma, actor, projectId);
    log(`imported the label set "${DEMO_LABEL_SET}" (${labels.labels} labels over ${labels.videos} clips)`);
    const alignment = await seedAlignmentDemo(context);
    return [...(await compareLinks(prisma, projectId)), alignment];
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
    return [...(await compareLinks(prisma, projectId)), ...(project ? [alignmentLink(project.id)] : [])];
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
  const labels = await importGenericLabels(prisma, actor, projectId, {
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
export async function importDemoLabelSet(prisma: PrismaClient, actor: Actor, projectId: string) {
  const imported = await importGenericLabels(prisma, actor, projectId, {
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
