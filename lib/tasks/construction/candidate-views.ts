/**
 * A generated Q&A candidate as every construction screen sees it: what the generator wrote (with its
 * provenance), the category, the four filters' decisions, the multiple-choice transformation and the
 * curators' decisions. The pipelines (qa_generate, qa_construct) produce it; the funnel, the curation screen
 * and the export read only this.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import type { AnnotatedStep, AnnotationDataset } from "./step-annotations";
import type { Granularity } from "./render-clip-info";
import type { CandidateFate, FilterDecision, FilterId } from "./filter-funnel";
import { checkerCount, constructState } from "./construct-state";
import type { TransformOutcome } from "./transform-attempts";
import { CANDIDATE_ITEM_KIND } from "./curation";

/** The item set kind of a generation run's candidates (one set per generation run). */
export const CANDIDATE_SET_KIND = "qa_candidates";

/** Where a candidate came from: enough to find the call and the exact template text again. */
export interface CandidateProvenance {
  generationRunId: string;
  stepId: string;
  templateId: string;
  templateHash: string;
  endpointId: string;
  endpointModel: string;
  /** The step_result row the pair is part of, and its llm_call (null for a cache hit with no call row). */
  stepResultId: string;
  callId: string | null;
  /** 0-based position of the pair in the generator's answer. */
  pairIndex: number;
}

/** A qa_candidate item's payload, as stored when the candidates of a generation run are created. */
export interface CandidatePayload {
  /** The video's file name (its relativePath), as question sets name videos. */
  video: string;
  clipItemId: string;
  clipExternalId: string;
  dataset: AnnotationDataset;
  granularity: Granularity;
  clip: { start: number; end: number; duration: number | null; theme: string | null; steps: AnnotatedStep[] };
  question: string;
  /** The generator's reference answer (open-ended). */
  answer: string;
  /** The generator's reason for the pair. */
  reason: string;
  provenance: CandidateProvenance;
}

export interface CandidateView {
  itemId: string;
  externalId: string;
  setId: string;
  videoId: string;
  payload: CandidatePayload;
  /** The candidate's dataset (its payload's), so a list of views is what filterFunnel counts by. */
  dataset: AnnotationDataset;
  /** Table 23's category, once the construct run categorised it. */
  category: string | null;
  /** Decisions so far by filter (from the latest construct run over the candidate's set). */
  decisions: Partial<Record<FilterId, FilterDecision>>;
  /** A curator restored the candidate that this filter removed (the latest restore). */
  restoredFrom: FilterId | null;
  /** Every filter a curator undid, in order (the funnel honours them all). */
  restored: FilterId[];
  fate: CandidateFate;
  /** The multiple-choice transformation; null before any attempt was made. */
  transform: TransformOutcome | null;
  /** Attempts stored so far (each with its calls). */
  attempts: number;
}

/** The pipeline whose runs decide about candidates (lib/tasks/construction/qa-construct-pipeline.ts). */
const CONSTRUCT_PIPELINE = "qa_construct";

/** Every filter restored so far, by item id (items with none are left out). One query. */
export async function latestRestoredFilters(
  prisma: PrismaClient,
  itemIds: readonly string[],
): Promise<Record<string, FilterId[]>> {
  if (itemIds.length === 0) return {};
  const rows = await prisma.qaCandidateRestore.findMany({
    where: { itemId: { in: [...itemIds] } },
    orderBy: { createdAt: "asc" },
    select: { itemId: true, filter: true },
  });
  const restored: Record<string, FilterId[]> = {};
  for (const row of rows) {
    const list = (restored[row.itemId] ??= []);
    if (!list.includes(row.filter as FilterId)) list.push(row.filter as FilterId);
  }
  return restored;
}

/**
 * Every candidate of a candidate set, in externalId order, with what the latest qa_construct run over the set
 * decided (read back from its stored step outputs, lib/tasks/construction/construct-state.ts) and the curators'
 * restores. One query per table, however many candidates.
 */
export async function loadCandidateViews(
  prisma: PrismaClient,
  access: ProjectAccess,
  candidateSetId: string,
): Promise<CandidateView[]> {
  const set = await prisma.itemSet.findFirst({
    where: { id: candidateSetId, projectId: access.projectId },
    select: { projectId: true, kind: true },
  });
  if (!set || set.kind !== CANDIDATE_SET_KIND) throw new NotFoundError("No such candidate set.");
  const items = await prisma.item.findMany({
    where: { setId: candidateSetId, kind: CANDIDATE_ITEM_KIND },
    orderBy: { externalId: "asc" },
    select: { id: true, externalId: true, setId: true, videoId: true, payload: true },
  });
  const run = await prisma.judgeRun.findFirst({
    where: {
      projectId: set.projectId,
      pipeline: CONSTRUCT_PIPELINE,
      items: { some: { item: { setId: candidateSetId } } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, settings: true },
  });
  // Each transformation check was asked of the run's checking endpoints (one unless its settings list more).
  const checkers = checkerCount(run?.settings ?? null);
  const steps = run
    ? await prisma.stepResult.findMany({
        where: { runId: run.id, status: "done" },
        select: { itemId: true, stepId: true, output: true },
      })
    : [];
  const outputsByItem = new Map<string, Map<string, unknown>>();
  for (const step of steps) {
    let outputs = outputsByItem.get(step.itemId);
    if (!outputs) outputsByItem.set(step.itemId, (outputs = new Map()));
    outputs.set(step.stepId, step.output);
  }
  const restoredByItem = await latestRestoredFilters(
    prisma,
    items.map((item) => item.id),
  );

  return items.map((item) => {
    const payload = item.payload as unknown as CandidatePayload;
    const outputs = outputsByItem.get(item.id) ?? new Map<string, unknown>();
    const restored = restoredByItem[item.id] ?? [];
    const state = constructState((stepId) => outputs.get(stepId), payload.answer, restored, checkers);
    return {
      itemId: item.id,
      externalId: item.externalId,
      setId: item.setId,
      videoId: item.videoId,
      payload,
      dataset: payload.dataset,
      category: state.category,
      decisions: state.decisions,
      restoredFrom: restored.at(-1) ?? null,
      restored,
      fate: state.fate,
      transform: state.transform,
      attempts: state.attempts,
    };
  });
}
