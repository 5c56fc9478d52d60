/**
 * The hallucination task's part of the demo (lib/demo/seed-demo-project.ts): two runs of the pipeline over
 * the clips with different settings (Compare judge setups needs two), and a label set over the clips, so
 * Paper's table and Compare judge setups have a reference on the first visit.
 */
import path from "node:path";
import type { Actor } from "../../auth/actor";
import type { DemoLink, DemoSeedPart } from "../../demo/demo-part";
import { CLIPS } from "../../demo/demo-clips";
import type { PrismaClient } from "../../generated/prisma/client";
import { importGenericLabels } from "../../label-sets/label-sets";

export const hallucinationDemo: DemoSeedPart = {
  async seed({ prisma, actor, projectId, endpointId, api, log }) {
    const run = await api(`/api/v1/projects/${projectId}/runs`, { json: { pipeline: "hallucination", endpointId } });
    log(`started a simulated hallucination run ${String(run.id)}`);
    // A second setup to compare with the first (Compare judge setups needs two runs): the worst score
    // anywhere instead of the mean of the categories' worst, and a lower verdict threshold.
    const secondRun = await api(`/api/v1/projects/${projectId}/runs`, { json: { pipeline: "hallucination", endpointId, settings: DEMO_SECOND_RUN_SETTINGS } });
    log(`started a second simulated hallucination run ${String(secondRun.id)} (max-max, threshold 3)`);
    // A label set over the clips, so Paper's table and Compare judge setups have a reference on the first visit.
    const labels = await importDemoLabelSet(prisma, actor, projectId);
    log(`imported the label set "${DEMO_LABEL_SET}" (${labels.labels} labels over ${labels.videos} clips)`);
    return compareLinks(prisma, projectId);
  },
  resume: ({ prisma, projectId }) => compareLinks(prisma, projectId),
};

async function compareLinks(prisma: PrismaClient, projectId: string): Promise<DemoLink[]> {
  const comparePath = await demoComparePath(prisma, projectId);
  return comparePath ? [{ label: "the two judge setups compared", path: comparePath }] : [];
}

export const DEMO_LABEL_SET = "Demo labels (simulated)";
export const DEMO_SECOND_RUN_SETTINGS = { aggregation: "max-max", verdict: { on: "max_category", threshold: 3 } };

/** Compare judge setups with the demo's two hallucination runs ticked against its label set (null without them). */
async function demoComparePath(prisma: PrismaClient, projectId: string): Promise<string | null> {
  const runs = await prisma.judgeRun.findMany({ where: { projectId, pipeline: "hallucination" }, orderBy: { createdAt: "asc" }, select: { id: true }, take: 2 });
  const labelSet = await prisma.labelSet.findFirst({ where: { projectId, name: DEMO_LABEL_SET }, select: { id: true } });
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
  if (imported.plan.issues.length) throw new Error(`the demo label set did not import cleanly: ${JSON.stringify(imported.plan.issues)}`);
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
