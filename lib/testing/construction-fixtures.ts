import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { CANDIDATE_SET_KIND, type CandidatePayload } from "../construction/candidate-views";
import { CANDIDATE_ITEM_KIND } from "../construction/curation";

/** A candidate's payload as a generation run stores it, over a two-step clip. */
export function candidatePayload(video: string, dataset: CandidatePayload["dataset"], question: string): CandidatePayload {
  return {
    video,
    clipItemId: "clip",
    clipExternalId: `${video}#0`,
    dataset,
    granularity: "coarse",
    clip: { start: 0, end: 60, duration: 60, theme: "Make a mask", steps: [{ start: 0, end: 30, text: "clean the face" }, { start: 30, end: 60, text: "apply tissue" }] as CandidatePayload["clip"]["steps"] },
    question,
    answer: `answer to ${question}`,
    reason: "r",
    provenance: { generationRunId: "run", stepId: "generate", templateId: "t", templateHash: "h", endpointId: "e", endpointModel: "m", stepResultId: "s", callId: null, pairIndex: 0 },
  };
}

/**
 * A candidate set inserted as the generation's "make candidates" step would leave it (that step lives with the
 * qa_generate pipeline); externalIds c0, c1, … in the given order.
 */
export async function insertCandidateSet(
  prisma: PrismaClient,
  owner: Actor,
  projectId: string,
  candidates: readonly { videoId: string; video: string; dataset: CandidatePayload["dataset"]; question: string }[],
  name = "Candidates",
) {
  const set = await prisma.itemSet.create({ data: { projectId, kind: CANDIDATE_SET_KIND, name, fileName: "-", sha256: "-", itemCount: candidates.length, importedById: owner.userId } });
  const itemIds: string[] = [];
  for (const [i, c] of candidates.entries()) {
    const item = await prisma.item.create({
      data: { projectId, setId: set.id, videoId: c.videoId, externalId: `c${i}`, kind: CANDIDATE_ITEM_KIND, group: c.dataset, payload: candidatePayload(c.video, c.dataset, c.question) as never },
    });
    itemIds.push(item.id);
  }
  return { setId: set.id, itemIds };
}
