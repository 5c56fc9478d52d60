/**
 * What a built-in alignment shows from train: the train units a candidate gets wrong (with the judge's reason and
 * the frames of its call) for the optimizer, and the train videos the few-shot candidate shows the judge as examples.
 * Only train units and their (already read) labels.
 */
import type { PrismaClient } from "../generated/prisma/client";
import {
  MAX_EXAMPLE_FRAMES,
  MAX_EXAMPLE_PROMPT_CHARS,
  type TemplateExample,
} from "../prompt-versions/template-examples";
import type { getStorage } from "../storage/storage";
import type { TargetDeclaration, TargetScope } from "../task-modules/task-declaration";
import { unitParts } from "./label-store";
import { disagreementOf, type Disagreement } from "./optimizer";
import { fewShotPick } from "./split";

const MAX_DISAGREEMENTS = 8;

/** A label as the judge reads it: the number, with the scale's word for it where the scale names its values. */
function labelText(target: TargetDeclaration, label: number): string {
  if (target.scale.kind === "numeric") return String(label);
  const named = target.scale.values.find((v) => v.value === label)?.label;
  return named ? `${label} (${named})` : String(label);
}

/**
 * k train videos as few-shot examples, half of each label class where the train split allows (seeded, as a rubric's
 * are), each with the first frames the candidate's train run sent for it in the step's call. Only train videos and
 * their (already read) labels.
 */
export async function builtinFewShotExamples(
  prisma: PrismaClient,
  candidate: { trainRunId: string },
  labels: ReadonlyMap<string, number>,
  train: readonly string[],
  stepId: string,
  target: TargetDeclaration,
  truthPositive: (v: number) => boolean,
  k: number,
  seed: number,
): Promise<TemplateExample[]> {
  const picked = fewShotPick(train, labels, truthPositive, k, seed);
  const examples: TemplateExample[] = [];
  for (const videoId of picked) {
    const video = await prisma.video.findUniqueOrThrow({ where: { id: videoId }, select: { prompt: true } });
    const call = await prisma.llmCall.findFirst({
      where: { runId: candidate.trainRunId, videoId, error: null, stepResult: { stepId } },
      orderBy: { createdAt: "desc" },
      select: { request: true },
    });
    const frameIds = ((call?.request as { frameIds?: string[] } | null)?.frameIds ?? []).slice(0, MAX_EXAMPLE_FRAMES);
    const rows = await prisma.frame.findMany({
      where: { id: { in: frameIds } },
      select: { id: true, frameSetId: true, index: true, sha256: true },
    });
    const frames = frameIds.flatMap((id) =>
      rows.filter((r) => r.id === id).map((r) => ({ frameSetId: r.frameSetId, index: r.index, sha256: r.sha256 })),
    );
    if (frames.length === 0) continue;
    const label = labels.get(videoId)!;
    examples.push({
      videoId,
      prompt: (video.prompt ?? "").slice(0, MAX_EXAMPLE_PROMPT_CHARS),
      target: target.label,
      label,
      labelText: labelText(target, label),
      frames,
    });
  }
  return examples;
}

export async function builtinDisagreements(
  prisma: PrismaClient,
  storage: ReturnType<typeof getStorage>,
  candidate: { trainRunId: string },
  values: ReadonlyMap<string, number>,
  labels: ReadonlyMap<string, number>,
  train: readonly string[],
  stepId: string,
  scope: TargetScope,
  positive: (v: number) => boolean,
  truthPositive: (v: number) => boolean,
  detail: "low" | "high" | "auto" | null,
): Promise<Disagreement[]> {
  const ids = train
    .filter((id) => values.has(id) && labels.has(id) && positive(values.get(id)!) !== truthPositive(labels.get(id)!))
    .slice(0, MAX_DISAGREEMENTS);
  const out: Disagreement[] = [];
  for (const unit of ids) {
    const { videoId, itemId, scopeIndex } = unitParts(unit);
    // The call of the rewritten step for this unit: its key frame's or cluster's index, or its item.
    const at = scope === "video" ? {} : scope === "item" ? { itemId } : { scopeIndex };
    const call = { runId: candidate.trainRunId, stepResult: { stepId, ...at } };
    const judged = { videoId, call, judgeValue: values.get(unit)!, label: labels.get(unit)! };
    out.push(await disagreementOf(prisma, storage, judged, (answer) => answer.reason, detail));
  }
  return out;
}
