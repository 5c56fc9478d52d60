/**
 * Step annotations for Q&A construction (seed 004): imported into a project as a set of clips, items attached
 * to their videos. Ego4D Goal-Step and Ego-Exo4D videos are trimmed into clips by the seed's rules
 * (lib/tasks/construction/trim-into-clips.ts); every other video is one clip of itself. Parsing returns every record
 * or every error, and the writing happens in one transaction, so a bad file never leaves half a set behind;
 * `dryRun` returns the same answer (the clips and the steps the trimming left out) without writing anything.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { MAX_CAPTION_SET_FILE_BYTES } from "../tasks/captions/caption-sets";
import { annotationFileFormat, type AnnotatedStep, type AnnotationDataset, parseStepAnnotations, type StepAnnotation, type VideoPerspective } from "../tasks/construction/step-annotations";
import { type DiscardedSteps, TRIMMED_DATASETS, trimIntoClips } from "../tasks/construction/trim-into-clips";
import { PayloadTooLargeError } from "../errors";
import { createItems, ItemFileError, type ItemFile, type ItemSetView, nulByteErrors, sha256 } from "./item-sets";

/** A clip item's payload as stored (the item's `group` is its dataset). */
export interface ClipPayload {
  video: string;
  theme: string | null;
  dataset: AnnotationDataset;
  /** As the annotation file gave it (null: not given; clips stored before it existed lack it). */
  perspective?: VideoPerspective | null;
  /** 0-based among the video's clips. */
  clipIndex: number;
  /** Seconds in the source video. */
  start: number;
  end: number;
  /** The clip's length: the video's duration when the video is one clip and its duration is known. */
  duration: number | null;
  /** Steps with times from the clip's start. */
  steps: AnnotatedStep[];
  /** Which of the video's annotated steps (1-based, inclusive) the clip holds. */
  fromStep: number;
  toStep: number;
  line: number;
}

export interface PlannedClips {
  video: string;
  line: number;
  clips: ClipPayload[];
  /** Steps the trimming left out, 1-based, with the rule that did. */
  discarded: DiscardedSteps[];
}

export interface StepAnnotationImportSummary {
  dryRun: boolean;
  set: ItemSetView | (Omit<ItemSetView, "id" | "importedAt"> & { id: null; importedAt: null });
  videos: number;
  clips: number;
  byDataset: Record<string, number>;
  plans: PlannedClips[];
}

/** The clips of one annotated video: trimmed for the datasets the seed trims, else the video whole. */
export function planClips(annotation: StepAnnotation): PlannedClips {
  const base = { video: annotation.video, theme: annotation.theme, dataset: annotation.dataset, perspective: annotation.perspective, line: annotation.line };
  if (!TRIMMED_DATASETS.includes(annotation.dataset)) {
    return {
      video: annotation.video,
      line: annotation.line,
      clips: [{ ...base, clipIndex: 0, start: 0, end: annotation.duration ?? annotation.steps.at(-1)!.end, duration: annotation.duration, steps: annotation.steps, fromStep: 1, toStep: annotation.steps.length }],
      discarded: [],
    };
  }
  const trimmed = trimIntoClips(annotation.steps);
  return {
    video: annotation.video,
    line: annotation.line,
    clips: trimmed.clips.map((clip) => ({ ...base, clipIndex: clip.index, start: clip.start, end: clip.end, duration: Math.round((clip.end - clip.start) * 1000) / 1000, steps: clip.steps, fromStep: clip.fromStep + 1, toStep: clip.toStep + 1 })),
    discarded: trimmed.discarded.map((d) => ({ ...d, fromStep: d.fromStep + 1, toStep: d.toStep + 1 })),
  };
}

export async function importStepAnnotations(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  file: ItemFile,
  options: { name?: string; citation?: string; dryRun?: boolean } = {},
): Promise<StepAnnotationImportSummary> {
  await requireProjectAccess(prisma, actor, projectId, "videos.import");
  if (file.bytes.byteLength > MAX_CAPTION_SET_FILE_BYTES) {
    throw new PayloadTooLargeError(`${file.fileName}: a step annotation file may be at most ${MAX_CAPTION_SET_FILE_BYTES / (1024 * 1024)} MiB.`);
  }
  const videos = await prisma.video.findMany({ where: { projectId }, select: { id: true, relativePath: true } });
  const videoIdByPath = new Map(videos.map((video) => [video.relativePath, video.id]));
  const parsed = parseStepAnnotations(file.bytes, videos.map((video) => video.relativePath), { format: annotationFileFormat(file.fileName) ?? undefined });
  if (!parsed.ok) throw new ItemFileError(file.fileName, parsed.errors, parsed.unmatchedVideos);
  const nulErrors = nulByteErrors(parsed.annotations.map(({ line, theme, video, steps }) => ({ line, theme, video, steps })));
  if (nulErrors.length) throw new ItemFileError(file.fileName, nulErrors);

  const plans = parsed.annotations.map((annotation) => ({ annotation, plan: planClips(annotation) }));
  const clipCount = plans.reduce((sum, p) => sum + p.plan.clips.length, 0);
  const byDataset: Record<string, number> = {};
  for (const { plan } of plans) for (const clip of plan.clips) byDataset[clip.dataset] = (byDataset[clip.dataset] ?? 0) + 1;
  const set = {
    kind: "step_annotations" as const,
    name: options.name || file.fileName,
    model: null,
    referenceSetId: null,
    fileName: file.fileName,
    sha256: sha256(file.bytes),
    itemCount: clipCount,
    citation: options.citation || null,
  };
  const summary = { videos: parsed.annotations.length, clips: clipCount, byDataset, plans: plans.map((p) => p.plan) };
  if (options.dryRun) return { dryRun: true, set: { ...set, id: null, importedAt: null }, ...summary };

  const stored = await prisma.$transaction(
    async (tx) => {
      const created = await tx.itemSet.create({
        data: { ...set, projectId, importedById: actor.userId },
        select: { id: true, kind: true, name: true, model: true, referenceSetId: true, fileName: true, sha256: true, itemCount: true, citation: true, importedAt: true },
      });
      await createItems(
        tx,
        plans.flatMap(({ annotation, plan }) =>
          plan.clips.map((clip) => ({
            projectId,
            setId: created.id,
            videoId: videoIdByPath.get(annotation.videoFileName)!,
            externalId: `${annotation.video}#${clip.clipIndex}`,
            kind: "clip",
            group: clip.dataset,
            payload: clip satisfies ClipPayload as never,
          })),
        ),
      );
      return created;
    },
    { timeout: 120_000 },
  );
  return { dryRun: false, set: { ...stored, kind: "step_annotations" }, ...summary };
}
