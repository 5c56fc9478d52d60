/**
 * Step annotations for Q&A construction (seed 004): imported into a project as a set of clips, items attached
 * to their videos. Ego4D Goal-Step and Ego-Exo4D videos are trimmed into clips by the seed's rules
 * (trim-into-clips.ts); every other video is one clip of itself. Parsing returns every record or every
 * error, and the core (lib/items/item-set-import.ts) writes in one transaction, so a bad file never leaves
 * half a set behind; `dryRun` returns the same answer (the clips and the steps the trimming left out) without writing anything.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { importItemSetOfKind, ItemFileError, nulByteErrors, type ItemFile } from "../../items/item-set-import";
import type { ItemSetImportOptions, ItemSetKind } from "../../task-modules/item-set-kind";
import {
  annotationFileFormat,
  type AnnotatedStep,
  type AnnotationDataset,
  parseStepAnnotations,
  type StepAnnotation,
  type VideoPerspective,
} from "./step-annotations";
import { type DiscardedSteps, TRIMMED_DATASETS, trimIntoClips } from "./trim-into-clips";

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

interface StepAnnotationSummary {
  videos: number;
  clips: number;
  byDataset: Record<string, number>;
  plans: PlannedClips[];
}

/** The clips of one annotated video: trimmed for the datasets the seed trims, else the video whole. */
export function planClips(annotation: StepAnnotation): PlannedClips {
  const base = {
    video: annotation.video,
    theme: annotation.theme,
    dataset: annotation.dataset,
    perspective: annotation.perspective,
    line: annotation.line,
  };
  if (!TRIMMED_DATASETS.includes(annotation.dataset)) {
    return {
      video: annotation.video,
      line: annotation.line,
      clips: [
        {
          ...base,
          clipIndex: 0,
          start: 0,
          end: annotation.duration ?? annotation.steps.at(-1)!.end,
          duration: annotation.duration,
          steps: annotation.steps,
          fromStep: 1,
          toStep: annotation.steps.length,
        },
      ],
      discarded: [],
    };
  }
  const trimmed = trimIntoClips(annotation.steps);
  return {
    video: annotation.video,
    line: annotation.line,
    clips: trimmed.clips.map((clip) => ({
      ...base,
      clipIndex: clip.index,
      start: clip.start,
      end: clip.end,
      duration: Math.round((clip.end - clip.start) * 1000) / 1000,
      steps: clip.steps,
      fromStep: clip.fromStep + 1,
      toStep: clip.toStep + 1,
    })),
    discarded: trimmed.discarded.map((d) => ({ ...d, fromStep: d.fromStep + 1, toStep: d.toStep + 1 })),
  };
}

/** Step annotations (JSONL, a JSON array or CSV): each video's clips are the set's items. */
export const stepAnnotationSetKind: ItemSetKind<ItemSetImportOptions, StepAnnotationSummary> = {
  id: "step_annotations",
  noun: "step annotation file",
  defaultFileName: "steps.jsonl",
  async plan({ file, options, videos }) {
    const videoIdByPath = new Map(videos.map((video) => [video.relativePath, video.id]));
    const parsed = parseStepAnnotations(
      file.bytes,
      videos.map((video) => video.relativePath),
      { format: annotationFileFormat(file.fileName) ?? undefined },
    );
    if (!parsed.ok) throw new ItemFileError(file.fileName, parsed.errors, parsed.unmatchedVideos);
    const nulErrors = nulByteErrors(
      parsed.annotations.map(({ line, theme, video, steps }) => ({ line, theme, video, steps })),
    );
    if (nulErrors.length) throw new ItemFileError(file.fileName, nulErrors);

    const plans = parsed.annotations.map((annotation) => ({ annotation, plan: planClips(annotation) }));
    const byDataset: Record<string, number> = {};
    for (const { plan } of plans)
      for (const clip of plan.clips) byDataset[clip.dataset] = (byDataset[clip.dataset] ?? 0) + 1;
    const items = plans.flatMap(({ annotation, plan }) =>
      plan.clips.map((clip) => ({
        videoId: videoIdByPath.get(annotation.videoFileName)!,
        externalId: `${annotation.video}#${clip.clipIndex}`,
        kind: "clip",
        group: clip.dataset,
        payload: clip satisfies ClipPayload as never,
      })),
    );
    return {
      set: {
        name: options.name || file.fileName,
        model: null,
        referenceSetId: null,
        citation: options.citation || null,
      },
      items,
      summary: { videos: parsed.annotations.length, clips: items.length, byDataset, plans: plans.map((p) => p.plan) },
    };
  },
};

export function importStepAnnotations(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  file: ItemFile,
  options: ItemSetImportOptions = {},
) {
  return importItemSetOfKind(prisma, access, stepAnnotationSetKind, file, options);
}
