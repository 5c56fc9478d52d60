/**
 * Every request the construction page sends to routes that other parts of the construction build provide:
 * the qa_generate and qa_construct runs (through the runs API), a candidate's restore, the export and
 * "Make a QA set". Kept in one module so their names and bodies are checked in one place.
 */
import { postJson } from "@/lib/api-client";

export const EXPORT_FORMATS = ["mc", "open", "both"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Generate candidate Q&A over a clip set: a qa_generate run. */
export function startGeneration(
  projectId: string,
  input: { clipSetId: string; endpointId: string; perspective?: "auto" | "first_person" | "third_person" },
) {
  return postJson<{ id: string }>(`/api/v1/projects/${projectId}/runs`, {
    pipeline: "qa_generate",
    endpointId: input.endpointId,
    clipSetId: input.clipSetId,
    ...(input.perspective && input.perspective !== "auto" ? { settings: { perspective: input.perspective } } : {}),
  });
}

/**
 * Categorise, filter and transform a candidate set: a qa_construct run, with an optional checking endpoint and
 * up to two more checkers for the transformation's checks ("" or undefined: none; the first defaults to the run's endpoint).
 */
export function startConstruction(
  projectId: string,
  input: { candidateSetId: string; endpointId: string; checkerEndpointId?: string; moreCheckerEndpointIds?: string[] },
) {
  const more = (input.moreCheckerEndpointIds ?? []).filter(Boolean);
  const first = input.checkerEndpointId || input.endpointId;
  const settings =
    more.length > 0
      ? { checkerEndpointIds: [first, ...more] }
      : input.checkerEndpointId
        ? { checkerEndpointId: input.checkerEndpointId }
        : null;
  return postJson<{ id: string }>(`/api/v1/projects/${projectId}/runs`, {
    pipeline: "qa_construct",
    endpointId: input.endpointId,
    candidateSetId: input.candidateSetId,
    ...(settings ? { settings } : {}),
  });
}

/** A curator puts back a candidate that a filter removed. */
export function restoreCandidate(itemId: string, input: { filter: string; reason: string }) {
  return postJson<unknown>(`/api/v1/items/${itemId}/restore`, input);
}

/** The accepted questions as a JSONL download in the question-set format. */
export function candidateExportHref(candidateSetId: string, format: ExportFormat) {
  return `/api/v1/candidate-sets/${candidateSetId}/export?format=${format}`;
}

/** The accepted questions as an lmms-eval task folder (.tar: task yaml, docs JSONL, utils.py). */
export function candidateLmmsEvalHref(candidateSetId: string, format: ExportFormat) {
  return `/api/v1/candidate-sets/${candidateSetId}/export/lmms-eval?format=${format}`;
}

/** The accepted questions stored as a question set of a project. */
export function makeQaSet(candidateSetId: string, input: { projectId: string; format: ExportFormat; name: string }) {
  return postJson<{ questionSetId: string; projectId: string; count: number }>(
    `/api/v1/candidate-sets/${candidateSetId}/qa-sets`,
    input,
  );
}

export const curationHref = (projectId: string) => `/projects/${projectId}/curation`;
