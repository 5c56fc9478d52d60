/**
 * Candidate sets of Q&A construction for tests, inserted directly as a generation run leaves them (without
 * running one): an item set of kind "qa_candidates" whose items are "qa_candidate"s with a CandidatePayload.
 */
import type { Actor } from "../../../lib/auth/actor";
import type { PrismaClient } from "../../../lib/generated/prisma/client";
import {
  CANDIDATE_SET_KIND,
  type CandidatePayload,
  type CandidateView,
} from "../../../lib/tasks/construction/candidate-views";
import { CANDIDATE_ITEM_KIND } from "../../../lib/tasks/construction/curation";
import { candidateFate } from "../../../lib/tasks/construction/filter-funnel";

export interface CandidateSpec {
  externalId: string;
  /** Index into `videoIds`. */
  video: number;
  question: string;
  answer: string;
  granularity?: "coarse" | "fine";
  /** Default "generic". */
  dataset?: CandidatePayload["dataset"];
}

/** The payload the generator would store for a candidate of the clip covering the whole (short) fixture video. */
export function candidatePayload(videoFileName: string, spec: CandidateSpec, pairIndex = 0): CandidatePayload {
  return {
    video: videoFileName,
    clipItemId: `clip-${spec.video}`,
    clipExternalId: `clip-${spec.video}`,
    dataset: spec.dataset ?? "generic",
    granularity: spec.granularity ?? "coarse",
    clip: {
      start: 0,
      end: 2,
      duration: 2,
      theme: "Rolling a ball down a ramp",
      steps: [
        { start: 0, end: 0.75, text: "Place the ball at the top of the ramp", category: null, substeps: [] },
        { start: 0.75, end: 1.5, text: "Let the ball roll down", category: null, substeps: [] },
        { start: 1.5, end: 2, text: "Catch the ball at the bottom", category: null, substeps: [] },
      ],
    },
    question: spec.question,
    answer: spec.answer,
    reason: "needs the order of the steps",
    provenance: {
      generationRunId: "run-fixture",
      stepId: "qa_generate",
      templateId: "generic/coarse",
      templateHash: "0123456789abcdef",
      endpointId: "endpoint-fixture",
      endpointModel: "stub-model",
      stepResultId: "step-result-fixture",
      callId: null,
      pairIndex,
    },
  };
}

/** Inserts a candidate set with these candidates into the project; returns its id and the items' ids by externalId. */
export async function insertCandidateSet(
  prisma: PrismaClient,
  owner: Actor,
  projectId: string,
  videoIds: readonly string[],
  specs: readonly CandidateSpec[],
  name = "Generated candidates",
) {
  const videos = await prisma.video.findMany({
    where: { id: { in: [...videoIds] } },
    select: { id: true, relativePath: true },
  });
  const set = await prisma.itemSet.create({
    data: {
      projectId,
      kind: CANDIDATE_SET_KIND,
      name,
      fileName: "-",
      sha256: "-",
      itemCount: specs.length,
      importedById: owner.userId,
    },
  });
  const itemIds: Record<string, string> = {};
  for (const [i, spec] of specs.entries()) {
    const videoId = videoIds[spec.video]!;
    const path = videos.find((v) => v.id === videoId)!.relativePath;
    const item = await prisma.item.create({
      data: {
        projectId,
        setId: set.id,
        videoId,
        externalId: spec.externalId,
        kind: CANDIDATE_ITEM_KIND,
        group: spec.dataset ?? "generic",
        payload: candidatePayload(path, spec, i) as never,
      },
    });
    itemIds[spec.externalId] = item.id;
  }
  return { setId: set.id, itemIds };
}

/** A view as the construct pipeline will give it once the filters kept the candidate and it was transformed. */
export function transformedView(
  view: CandidateView,
  wrong: readonly [string, string, string, string],
  category = "Step Sequencing",
): CandidateView {
  const decisions = {
    blind: { removed: false, reason: "needs the video" },
    hallucination: { removed: false, reason: "supported" },
    tricky: { removed: false, reason: "answered right" },
    unspecific: { removed: false, reason: "specific" },
  };
  return {
    ...view,
    category,
    decisions,
    fate: candidateFate({ category, dataset: view.payload.dataset, decisions }),
    transform: { state: "transformed", attempt: 2, wrong },
    attempts: 2,
  };
}
