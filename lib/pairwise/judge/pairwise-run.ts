/**
 * Starting a pairwise judge run: a JudgeRun with pipeline "pairwise" over a pair set, one step row per question
 * (pair × aspect × order, its videoId the pair's id), one job per pair. The run's status, progress (its steps),
 * cancellation and budget are every run's (lib/judge/runs); a budget-stopped run resumes through resumeRun and then
 * `requeuePairwiseRun` queues its unfinished pairs again.
 */
import type { JudgeEndpoint, Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { capabilitiesOf } from "../../judge/endpoints/endpoint-capabilities";
import { runInputMode } from "../../judge/input-modes/plan-request-media";
import { inputModeOf, type InputMode } from "../../judge/input-modes";
import type { RunEstimate } from "../../judge/runs/cost-estimate";
import { PAIRS_ENSEMBLE } from "../../judge/runs/ensemble-settings";
import type { TemplateSource } from "../../judge/prompts/template-source";
import { aspectListSchema, type Aspect } from "../aspects";
import { evenly } from "./pair-frames";
import { estimatePairwiseRun, type EstimatedPair } from "./pairwise-estimate";
import type { PairwiseQueue } from "./pairwise-queue";
import { PAIRWISE_TEMPLATE_ID } from "./pairwise-request";
import type { CreatePairwiseRunInput } from "./pairwise-run.types";
import { DEFAULT_FRAMES_PER_VIDEO, questionStepId, type PairwiseSettings } from "./pairwise-settings";
import { PAIR_ORDERS } from "./reconcile";
import { PAIRWISE_RUN } from "../../run-records/run-name";
import { clipRefOf, VIDEO_CLIP_SELECT } from "../../videos/video-clip";

export interface PairwiseRunDeps {
  prisma: PrismaClient;
  queue: PairwiseQueue;
  templates: TemplateSource;
}

/** Pairs the estimate reads frame sizes of; a larger set is estimated from an even sample of them. */
const ESTIMATE_SAMPLE = 500;

export async function createPairwiseRun(
  deps: PairwiseRunDeps,
  access: ProjectAccess<"runs.manage">,
  pairSetId: string,
  input: CreatePairwiseRunInput,
): Promise<{
  id: string | null;
  pairs: number;
  questions: number;
  calls: number;
  estimate: RunEstimate;
  members?: string[];
}> {
  const { prisma } = deps;
  const { set, endpoint } = await setAndEndpoint(prisma, access, pairSetId, input.endpointId);
  const panel = input.panel ? await panelEndpoints(prisma, access, input.endpointId, input.panel) : null;
  const aspects = chosenAspects(aspectListSchema.parse(set.aspects), input.aspects);
  const settings: PairwiseSettings = {
    aspects: aspects.map((a) => a.id),
    orders: [...PAIR_ORDERS],
    framesPerVideo: input.framesPerVideo ?? DEFAULT_FRAMES_PER_VIDEO,
  };
  const pairs = await pairsToJudge(prisma, pairSetId, input.pairIds);
  // Each member run: one per sample (the run's endpoint, each its own salt), one per judge of a panel, or the run.
  const plans: MemberPlan[] = panel
    ? panel.map((judge) => ({ endpoint: judge, sampling: null }))
    : Array.from({ length: input.samples ?? 1 }, (_, index) => ({
        endpoint,
        sampling: input.samples ? { salt: `sample-${index}`, temperature: input.temperature ?? null } : null,
      }));
  const estimates = new Map<string, RunEstimate>();
  for (const judge of new Set(plans.map((plan) => plan.endpoint))) {
    const inputMode = pairwiseInputMode(judge, input.inputMode);
    const options = { endpoint: judge, pairSetId, pairIds: input.pairIds ?? null, aspects, settings, inputMode };
    estimates.set(judge.id, await estimateForSet(deps, { ...options, pairs: pairs.length }));
  }
  const memberEstimates = plans.map((plan) => estimates.get(plan.endpoint.id)!);
  const estimate = summedEstimates(memberEstimates);
  const questions = pairs.length * aspects.length;
  const calls = questions * PAIR_ORDERS.length * plans.length;
  if (input.dryRun) return { id: null, pairs: pairs.length, questions, calls, estimate };
  const common = {
    projectId: access.projectId,
    pipeline: PAIRWISE_RUN.pipeline,
    pairSetId,
    settings: settings as unknown as Prisma.InputJsonValue,
    budgetUsd: input.budgetUsd ?? null,
    createdById: access.actor.userId,
  };
  const created = await prisma.$transaction(async (tx) => {
    if (plans.length === 1)
      return { id: await questionRun(tx, runRow(common, endpoint, estimate), pairs, aspects), members: [] };
    // Samples or a panel: member runs asked apart, their verdicts combined into the parent's by majority once the
    // last is done (./pairwise-samples.ts).
    const ensemble = panel
      ? { ...PAIRS_ENSEMBLE, kind: "panel", endpointIds: panel.map((judge) => judge.id), combine: "majority" }
      : {
          ...PAIRS_ENSEMBLE,
          kind: "samples",
          samples: plans.length,
          temperature: input.temperature ?? null,
          combine: "majority",
        };
    const parent = await tx.judgeRun.create({
      data: { ...runRow(common, endpoint, estimate), ensemble: json(ensemble) },
      select: { id: true },
    });
    const members: string[] = [];
    for (const [index, plan] of plans.entries()) {
      const data = {
        ...runRow(common, plan.endpoint, memberEstimates[index]!),
        parentRunId: parent.id,
        memberIndex: index,
        ...(plan.sampling ? { sampling: json(plan.sampling) } : {}),
      };
      members.push(await questionRun(tx, data, pairs, aspects));
    }
    return { id: parent.id, members };
  });
  const judged = created.members.length ? created.members : [created.id];
  await deps.queue.enqueue(judged.flatMap((runId) => pairs.map((pair) => ({ runId, pairId: pair.id }))));
  return {
    id: created.id,
    pairs: pairs.length,
    questions,
    calls,
    estimate,
    ...(created.members.length ? { members: created.members } : {}),
  };
}

/** One member run to make: its endpoint, and a sample's salt and temperature (JudgeRun.sampling). */
/**
 * A pairwise run's input mode on an endpoint: the one asked, else the endpoint's own when it is `video-file`, else
 * `images`; a mode the endpoint's probe saw refused is a 400 (runInputMode). `video-frames` is a 400: vLLM applies a
 * request's `media_io_kwargs` to every video in it, so two JPEG lists would share one `frames_indices` and one of the
 * two videos would be told the other's frame times.
 */
export function pairwiseInputMode(
  endpoint: Pick<JudgeEndpoint, "name" | "inputMode" | "capabilities">,
  asked: InputMode | undefined,
): InputMode {
  if (asked === "video-frames")
    throw new ValidationError(
      'A pairwise run cannot send two videos as frame lists (inputMode "video-frames"): both would be told one video\'s frame times. Use "images" (each video\'s frames as pictures, with their times) or "video-file" (the two files).',
    );
  return runInputMode(endpoint, asked ?? (inputModeOf(endpoint.inputMode) === "video-file" ? "video-file" : "images"));
}

interface MemberPlan {
  endpoint: JudgeEndpoint;
  sampling: { salt: string; temperature: number | null } | null;
}

/** A pairwise run's row on an endpoint: what every run of the request shares, and its endpoint's own fields. */
function runRow(
  common: Omit<Prisma.JudgeRunUncheckedCreateInput, "endpointId" | "endpointSnapshot" | "simulated" | "inputMode">,
  endpoint: JudgeEndpoint,
  estimate: RunEstimate,
): Prisma.JudgeRunUncheckedCreateInput {
  return {
    ...common,
    endpointId: endpoint.id,
    endpointSnapshot: {
      name: endpoint.name,
      baseUrl: endpoint.baseUrl,
      model: endpoint.model,
      temperature: endpoint.temperature,
      imageDetail: endpoint.imageDetail,
    },
    simulated: /^stub/i.test(endpoint.model) || endpoint.name.toLowerCase().includes("simulated"),
    inputMode: estimate.inputMode,
    estimate: json(estimate),
  };
}

/**
 * A panel's endpoints, in the order named: each of the project and not archived, the run's own endpoint among them
 * (it is the parent run's, as a video panel's is).
 */
async function panelEndpoints(
  prisma: PrismaClient,
  access: ProjectAccess<"runs.manage">,
  endpointId: string,
  endpointIds: readonly string[],
): Promise<JudgeEndpoint[]> {
  if (!endpointIds.includes(endpointId))
    throw new ValidationError("endpointId must be one of the panel's endpoints (panel).");
  const found = await prisma.judgeEndpoint.findMany({
    where: { projectId: access.projectId, id: { in: [...endpointIds] } },
  });
  const missing = endpointIds.filter((id) => !found.some((e) => e.id === id));
  if (missing.length) throw new NotFoundError(`No such endpoint in this project: ${missing.join(", ")}.`);
  const archived = found.filter((e) => e.archivedAt);
  if (archived.length)
    throw new ValidationError(
      `Endpoint ${archived.map((e) => e.name).join(", ")} is archived: restore it to start runs with it.`,
    );
  return endpointIds.map((id) => found.find((e) => e.id === id)!);
}

const json = (value: unknown) => value as Prisma.InputJsonValue;

/** The pair set and the endpoint a run names, of the access's project, not archived. */
async function setAndEndpoint(
  prisma: PrismaClient,
  access: ProjectAccess<"runs.manage">,
  pairSetId: string,
  endpointId: string,
) {
  const set = await prisma.pairSet.findFirst({
    where: { id: pairSetId, projectId: access.projectId },
    select: { id: true, aspects: true, archivedAt: true },
  });
  if (!set) throw new NotFoundError("No such pair set in this project.");
  if (set.archivedAt) throw new ValidationError("The pair set is archived: restore it to judge its pairs.");
  const endpoint = await prisma.judgeEndpoint.findFirst({ where: { id: endpointId, projectId: access.projectId } });
  if (!endpoint) throw new NotFoundError("No such endpoint in this project.");
  if (endpoint.archivedAt)
    throw new ValidationError(`Endpoint ${endpoint.name} is archived: restore it to start runs with it.`);
  return { set, endpoint };
}

/** A run that asks every pair's questions: its row, and one step per pair, aspect and order. */
async function questionRun(
  tx: Prisma.TransactionClient,
  data: Prisma.JudgeRunUncheckedCreateInput,
  pairs: readonly { id: string }[],
  aspects: readonly Aspect[],
): Promise<string> {
  const created = await tx.judgeRun.create({ data, select: { id: true } });
  await tx.stepResult.createMany({
    data: pairs.flatMap((pair) =>
      aspects.flatMap((aspect) =>
        PAIR_ORDERS.map((order) => ({
          runId: created.id,
          videoId: pair.id,
          stepId: questionStepId(aspect.id, order),
          scopeIndex: 0,
          templateId: PAIRWISE_TEMPLATE_ID,
        })),
      ),
    ),
  });
  return created.id;
}

/** The estimate of several member runs: every count and cost added up, step by step (a cost is null only when no member's is known). */
function summedEstimates(estimates: readonly RunEstimate[]): RunEstimate {
  if (estimates.length === 1) return estimates[0]!;
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const cost = (values: (number | null)[]) => (values.every((v) => v === null) ? null : sum(values.map((v) => v ?? 0)));
  const range = (ranges: [number, number][]): [number, number] => [
    sum(ranges.map((r) => r[0])),
    sum(ranges.map((r) => r[1])),
  ];
  const costRange = (ranges: ([number, number] | null)[]) =>
    ranges.every((r) => r === null) ? null : range(ranges.map((r) => r ?? [0, 0]));
  type Counted = Pick<
    RunEstimate,
    | "calls"
    | "images"
    | "videoFrames"
    | "videoSeconds"
    | "inputTokens"
    | "outputTokens"
    | "outputTokensRange"
    | "costUsd"
    | "costUsdRange"
  >;
  const added = <T extends Counted>(parts: readonly T[]): Counted => ({
    calls: sum(parts.map((p) => p.calls)),
    images: sum(parts.map((p) => p.images)),
    videoFrames: sum(parts.map((p) => p.videoFrames)),
    videoSeconds: sum(parts.map((p) => p.videoSeconds)),
    inputTokens: sum(parts.map((p) => p.inputTokens)),
    outputTokens: sum(parts.map((p) => p.outputTokens)),
    outputTokensRange: range(parts.map((p) => p.outputTokensRange)),
    costUsd: cost(parts.map((p) => p.costUsd)),
    costUsdRange: costRange(parts.map((p) => p.costUsdRange)),
  });
  const first = estimates[0]!;
  return {
    ...first,
    ...added(estimates),
    steps: first.steps.map((step) => ({
      ...step,
      ...added(estimates.flatMap((e) => e.steps.filter((s) => s.stepId === step.stepId))),
    })),
  };
}

/** The aspects asked: the set's, in its order, or those named (an unknown id is a 400 that names it). */
function chosenAspects(setAspects: readonly Aspect[], named: readonly string[] | undefined): Aspect[] {
  if (!named) return [...setAspects];
  const unknown = named.filter((id) => !setAspects.some((a) => a.id === id));
  if (unknown.length)
    throw new ValidationError(
      `Unknown aspect ${unknown.map((id) => `"${id}"`).join(", ")}: the set's aspects are ${setAspects.map((a) => a.id).join(", ")}.`,
    );
  return setAspects.filter((a) => named.includes(a.id));
}

/** The set's pairs in order, or only those named (each must be the set's); a run of no pair is refused. */
async function pairsToJudge(
  prisma: PrismaClient,
  pairSetId: string,
  pairIds: readonly string[] | undefined,
): Promise<{ id: string }[]> {
  const pairs = await prisma.pair.findMany({
    where: { pairSetId, ...(pairIds ? { id: { in: [...pairIds] } } : {}) },
    orderBy: { position: "asc" },
    select: { id: true },
  });
  if (pairIds && pairs.length !== new Set(pairIds).size)
    throw new ValidationError("Some of the pairs named are not pairs of this set.");
  if (pairs.length === 0) throw new ValidationError("The pair set has no pairs to judge.");
  return pairs;
}

/** Reads the frame sizes of (a sample of) the set's pairs and estimates every question in both orders. */
async function estimateForSet(
  deps: PairwiseRunDeps,
  run: {
    endpoint: JudgeEndpoint;
    pairSetId: string;
    pairIds: string[] | null;
    aspects: Aspect[];
    settings: PairwiseSettings;
    pairs: number;
    inputMode: InputMode;
  },
): Promise<RunEstimate> {
  const rows = await deps.prisma.pair.findMany({
    where: { pairSetId: run.pairSetId, ...(run.pairIds ? { id: { in: run.pairIds } } : {}) },
    orderBy: { position: "asc" },
    select: { prompt: true, videoAId: true, videoBId: true, honeypot: true },
  });
  const sample = evenly(rows, ESTIMATE_SAMPLE);
  const videoIds = [
    ...new Set(sample.flatMap((p) => [p.videoAId, p.videoBId]).filter((id): id is string => id !== null)),
  ];
  const sets = await deps.prisma.frameSet.findMany({
    where: { videoId: { in: videoIds } },
    orderBy: { createdAt: "desc" },
    select: {
      videoId: true,
      frameCount: true,
      frames: { take: 1, orderBy: { index: "asc" }, select: { width: true, height: true } },
    },
  });
  const sizes = new Map<string, { width: number; height: number }[]>();
  for (const set of sets) {
    if (sizes.has(set.videoId) || !set.frames[0]) continue;
    sizes.set(set.videoId, Array(Math.min(set.frameCount, run.settings.framesPerVideo)).fill(set.frames[0]));
  }
  // A `video-file` run sends the files: their sizes decide whether a pair's two go in one body, their lengths price them.
  const files =
    run.inputMode === "video-file"
      ? await deps.prisma.video.findMany({
          where: { id: { in: videoIds } },
          select: { id: true, ...VIDEO_CLIP_SELECT },
        })
      : [];
  const clips = new Map(files.map((file) => [file.id, clipRefOf(file)]));
  const pairs: EstimatedPair[] = sample.map((p) => {
    const a = (p.videoAId && sizes.get(p.videoAId)) || [];
    const clipA = (p.videoAId && clips.get(p.videoAId)) || null;
    const clipB = p.honeypot ? null : (p.videoBId && clips.get(p.videoBId)) || null;
    return { prompt: p.prompt, a, b: p.honeypot ? a : (p.videoBId && sizes.get(p.videoBId)) || [], clipA, clipB };
  });
  return estimatePairwiseRun({
    endpoint: { ...run.endpoint, capabilities: capabilitiesOf(run.endpoint.capabilities) },
    templates: deps.templates,
    aspects: run.aspects,
    pairs,
    inputMode: run.inputMode,
    totalPairs: run.pairs,
  });
}

/**
 * After resumeRun put a budget-stopped pairwise run back: queues the pairs with questions still pending, of the run and,
 * for a run of samples (named itself or by a member), of every member. Returns how many jobs it queued.
 */
export async function requeuePairwiseRun(
  deps: Pick<PairwiseRunDeps, "prisma" | "queue">,
  runId: string,
): Promise<number> {
  const run = await deps.prisma.judgeRun.findUnique({ where: { id: runId }, select: { parentRunId: true } });
  const headId = run?.parentRunId ?? runId;
  const members = await deps.prisma.judgeRun.findMany({ where: { parentRunId: headId }, select: { id: true } });
  const pending = await deps.prisma.stepResult.findMany({
    where: { runId: { in: [headId, ...members.map((m) => m.id)] }, status: "pending" },
    distinct: ["runId", "videoId"],
    select: { runId: true, videoId: true },
  });
  await deps.queue.enqueue(pending.map((step) => ({ runId: step.runId, pairId: step.videoId })));
  return pending.length;
}
