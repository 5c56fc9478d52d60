/**
 * A finished qa_generate run's answers become Q&A candidates: one item set of kind "qa_candidates" per
 * generation run, one "qa_candidate" item per generated pair, attached to its clip's video, with the pair's
 * full provenance (run, step, template id and hash, endpoint, step result, call, position). Idempotent: a
 * second call returns the set the first made. A generation step that failed makes no candidates; it is
 * counted in the answer.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import type { ClipPayload } from "./step-annotation-sets";
import { createItems, sha256 } from "../../items/item-set-import";
import { CANDIDATE_SET_KIND, type CandidatePayload } from "./candidate-views";
import { generatedPairsSchema } from "./construction-outputs";
import { CANDIDATE_ITEM_KIND } from "./curation";
import type { Granularity } from "./render-clip-info";

/** The generation step of each granularity (lib/tasks/construction/qa-generate-pipeline.ts). */
const GRANULARITY_OF_STEP = new Map<string, Granularity>([
  ["generate_coarse", "coarse"],
  ["generate_fine", "fine"],
]);
const GENERATION_PIPELINE = "qa_generate";

export interface CandidatesFromRun {
  setId: string;
  /** Candidates in the set. */
  count: number;
  /** The set existed already (this call made nothing). */
  existed: boolean;
  /** Generation steps that ended without a valid answer, so made no candidates. */
  failedSteps: number;
}

/** The set's file name ties it to its run: how a second call finds it. */
const setFileName = (runId: string) => `generation-run-${runId}`;

const runSelect = {
  id: true,
  projectId: true,
  pipeline: true,
  status: true,
  endpointId: true,
  endpointSnapshot: true,
  createdAt: true,
  createdById: true,
} as const;

export async function createCandidatesFromRun(
  prisma: PrismaClient,
  access: ProjectAccess<"runs.manage">,
  runId: string,
): Promise<CandidatesFromRun> {
  const run = await prisma.judgeRun.findFirst({ where: { id: runId, projectId: access.projectId }, select: runSelect });
  if (!run) throw new NotFoundError("No such run.");
  return candidatesOf(prisma, run, access.actor.userId);
}

/** The candidates of a generation run that just finished, made by the worker that finished it (in the name of the run's creator). */
export async function createCandidatesAfterRun(prisma: PrismaClient, runId: string): Promise<CandidatesFromRun> {
  const run = await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId }, select: runSelect });
  return candidatesOf(prisma, run, run.createdById);
}

type GenerationRun = {
  id: string;
  projectId: string;
  pipeline: string;
  status: string;
  endpointId: string;
  endpointSnapshot: unknown;
  createdAt: Date;
};

async function candidatesOf(prisma: PrismaClient, run: GenerationRun, madeById: string): Promise<CandidatesFromRun> {
  const runId = run.id;
  if (run.pipeline !== GENERATION_PIPELINE)
    throw new ValidationError(
      `Run ${runId} is a ${run.pipeline} run: candidates come from ${GENERATION_PIPELINE} runs.`,
    );
  if (run.status === "queued" || run.status === "running")
    throw new ValidationError("The generation run has not finished yet: make its candidates once it has.");
  const { rows, failedSteps, clipSetNames } = await candidateRows(prisma, run);
  return saveCandidateSet(prisma, run, madeById, { rows, failedSteps, clipSetNames });
}

type CandidateRow = { videoId: string; externalId: string; group: string; payload: CandidatePayload };

/** A candidate per pair each finished generation step answered, with its provenance; the steps that made none. */
async function candidateRows(prisma: PrismaClient, run: GenerationRun) {
  const steps = await prisma.stepResult.findMany({
    where: { runId: run.id, stepId: { in: [...GRANULARITY_OF_STEP.keys()] } },
    orderBy: [{ itemId: "asc" }, { stepId: "asc" }],
    select: {
      id: true,
      itemId: true,
      stepId: true,
      status: true,
      output: true,
      templateId: true,
      templateHash: true,
      calls: { orderBy: [{ createdAt: "desc" }, { isRepair: "desc" }], take: 1, select: { id: true } },
    },
  });
  const clips = await prisma.item.findMany({
    where: { id: { in: [...new Set(steps.map((s) => s.itemId))] } },
    select: {
      id: true,
      externalId: true,
      videoId: true,
      setId: true,
      payload: true,
      video: { select: { relativePath: true } },
      set: { select: { name: true } },
    },
  });
  const clipById = new Map(clips.map((clip) => [clip.id, clip]));
  const model = (run.endpointSnapshot as { model?: string } | null)?.model ?? "";

  const rows: CandidateRow[] = [];
  let failedSteps = 0;
  for (const step of steps) {
    const parsed = step.status === "done" ? generatedPairsSchema.safeParse(step.output) : null;
    const clip = clipById.get(step.itemId);
    if (!parsed?.success || !clip || !step.templateHash) {
      failedSteps++;
      continue;
    }
    const granularity = GRANULARITY_OF_STEP.get(step.stepId)!;
    const payload = clip.payload as unknown as ClipPayload;
    parsed.data.forEach((pair, pairIndex) => {
      rows.push({
        videoId: clip.videoId,
        externalId: `${clip.externalId}-${granularity}-${pairIndex + 1}`,
        group: payload.dataset,
        payload: {
          video: clip.video.relativePath,
          clipItemId: clip.id,
          clipExternalId: clip.externalId,
          dataset: payload.dataset,
          granularity,
          clip: {
            start: payload.start,
            end: payload.end,
            duration: payload.duration,
            theme: payload.theme,
            steps: payload.steps,
          },
          question: pair.Question,
          answer: pair.Answer,
          reason: pair.Reason,
          provenance: {
            generationRunId: run.id,
            stepId: step.stepId,
            templateId: step.templateId,
            templateHash: step.templateHash!,
            endpointId: run.endpointId,
            endpointModel: model,
            stepResultId: step.id,
            callId: step.calls[0]?.id ?? null,
            pairIndex,
          },
        },
      });
    });
  }
  return { rows, failedSteps, clipSetNames: [...new Set(clips.map((clip) => clip.set.name))] };
}

/** The run's candidate set with its items, in one transaction; the set a first call made when there is one. */
function saveCandidateSet(
  prisma: PrismaClient,
  run: GenerationRun,
  madeById: string,
  made: { rows: CandidateRow[]; failedSteps: number; clipSetNames: string[] },
): Promise<CandidatesFromRun> {
  const { rows, failedSteps, clipSetNames } = made;
  return prisma.$transaction(
    async (tx) => {
      // Two calls at once for one run: the second waits here, then finds the first's set.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${setFileName(run.id)}))`;
      const existing = await tx.itemSet.findFirst({
        where: { projectId: run.projectId, kind: CANDIDATE_SET_KIND, fileName: setFileName(run.id) },
        select: { id: true, itemCount: true },
      });
      if (existing) return { setId: existing.id, count: existing.itemCount, existed: true, failedSteps };
      const set = await tx.itemSet.create({
        data: {
          projectId: run.projectId,
          kind: CANDIDATE_SET_KIND,
          name: `Candidates of ${clipSetNames.join(", ") || "no clips"} (generation run ${run.createdAt.toISOString().slice(0, 16).replace("T", " ")})`,
          fileName: setFileName(run.id),
          sha256: sha256(Buffer.from(run.id)),
          itemCount: rows.length,
          importedById: madeById,
        },
        select: { id: true },
      });
      await createItems(
        tx,
        rows.map((row) => ({
          projectId: run.projectId,
          setId: set.id,
          videoId: row.videoId,
          externalId: row.externalId,
          kind: CANDIDATE_ITEM_KIND,
          group: row.group,
          payload: row.payload as never,
        })),
      );
      return { setId: set.id, count: rows.length, existed: false, failedSteps };
    },
    { timeout: 120_000 },
  );
}
