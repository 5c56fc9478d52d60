/**
 * Results from the eval harnesses labs already run, imported as an external QA run of a question set:
 *
 * - lmms-eval's `--log_samples` output (`samples_<task>_<date>.jsonl`): one JSON object per line with
 *   `doc_id`, `doc` (the dataset row: Video-MME's `videoID`/`question`/`options`/`answer`, MVBench's
 *   `video`/`question`/`candidates`/`answer`…), `target`, `resps` and `filtered_resps` (the model's answer,
 *   nested in lists), and the task's metric fields.
 * - VLMEvalKit's per-model prediction file (`<model>_<dataset>.tsv`, or the `.xlsx` it also writes): a header
 *   row, then `index`, `video`, `question`, the options `A`…, `answer` and `prediction`.
 *
 * Each row is matched to one of the set's questions: by the question's id (`doc_id`, `question_id` or
 * `index`), else by its video (file name without extension) and question text. The prediction is kept as
 * the run's raw answer and read exactly as FrameJury reads its own runs' answers: a multiple-choice letter
 * by extract-letter.ts, with the correctness score FrameJury's own decisions carry (so answers can be reviewed,
 * queued and compared with reviewers). An answer with no single readable letter, and every open answer, is
 * judged by the QA pipeline's own decide step when the import names a judge endpoint: the run is created queued,
 * with its decide steps for those answers left to the engine (a job per video, as an own run's). Without a judge
 * no LLM is called: such an answer is stored with its decision left undone ("skipped"), so it counts as
 * unanswerable, never as wrong. With `createQuestions`, rows no question matches become questions of the set.
 *
 * All or nothing: the dry run (and a failed import) lists every row that cannot be read, with its line.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { baselineAnswers, type BaselineAnswer } from "./harness-baseline";
import type { HarnessImportFields } from "./harness-fields";
import { parseLmmsEvalSamples } from "./harness-lmms-eval";
import { decideWithoutJudge, matchHarnessRows } from "./harness-match";
import type { HarnessRowError, SetQuestion } from "./harness-rows";
import { writeHarnessRun, type HarnessDecision, type HarnessJudge, type HarnessRunVideo } from "./harness-run-write";
import { isXlsx, parseVlmEvalKitTsv, parseVlmEvalKitXlsx } from "./harness-vlmevalkit";
import type { QaDecision } from "./qa-pipeline";
import type { QuestionPayload } from "./question-set-import";

/** Where the judging jobs go (the app's pg-boss queue; tests judge inline). */
export interface HarnessJudgeQueue {
  enqueue(jobs: { runId: string; videoId: string }[]): Promise<void>;
}

export interface HarnessImportResult {
  dryRun: boolean;
  ok: boolean;
  errors: HarnessRowError[];
  rows: number;
  /** Questions created in the set (createQuestions), counted in `rows`. */
  created: number;
  decided: { correct: number; wrong: number; undecided: number };
  /** Undecided answers handed to the judge endpoint (judgeEndpointId): the run stays queued/running until they are judged. */
  judging: number;
  runId: string | null;
}

/** The archived endpoint record an external model's runs hang on (runs need one; it is never called). */
async function externalEndpoint(prisma: PrismaClient, actor: Actor, projectId: string, model: string) {
  const name = `External: ${model}`;
  const existing = await prisma.judgeEndpoint.findFirst({
    where: { projectId, name, baseUrl: "external:" },
    select: { id: true },
  });
  if (existing) return existing.id;
  return (
    await prisma.judgeEndpoint.create({
      data: { projectId, name, baseUrl: "external:", model, createdById: actor.userId, archivedAt: new Date() },
      select: { id: true },
    })
  ).id;
}

/** The set's questions, as the matcher reads them. */
async function setQuestions(prisma: PrismaClient, setId: string): Promise<SetQuestion[]> {
  const items = await prisma.item.findMany({
    where: { setId, kind: "question" },
    select: { id: true, videoId: true, externalId: true, payload: true, video: { select: { relativePath: true } } },
  });
  return items.map((i) => ({
    itemId: i.id,
    videoId: i.videoId,
    externalId: i.externalId,
    videoPath: i.video.relativePath,
    payload: i.payload as unknown as QuestionPayload,
  }));
}

/** The file's rows matched to the set's questions, each with the decision made without an LLM; every unreadable row. */
async function readDecisions(
  prisma: PrismaClient,
  projectId: string,
  fields: HarnessImportFields,
  bytes: Uint8Array,
  questions: readonly SetQuestion[],
): Promise<{ decisions: HarnessDecision[]; errors: HarnessRowError[] }> {
  const text = () => new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
  const parsed =
    fields.format === "lmms-eval"
      ? parseLmmsEvalSamples(text())
      : isXlsx(bytes)
        ? await parseVlmEvalKitXlsx(bytes)
        : parseVlmEvalKitTsv(text());
  const projectVideos = fields.createQuestions
    ? await prisma.video.findMany({ where: { projectId }, select: { id: true, relativePath: true } })
    : [];
  const { matched, errors: matchErrors } = matchHarnessRows(
    parsed.rows,
    questions,
    fields.createQuestions ? { videos: projectVideos } : undefined,
  );
  const errors = [...parsed.errors, ...matchErrors].sort((a, b) => a.line - b.line);
  if (parsed.rows.length + parsed.errors.length === 0) errors.push({ line: 1, message: "the file has no rows" });
  const decisions = matched.map((m) => ({ ...m, result: decideWithoutJudge(m.question.payload, m.row.prediction) }));
  return { decisions, errors };
}

/** The judge endpoint the import names, refused when it is not the project's or is archived. */
async function judgeEndpoint(
  prisma: PrismaClient,
  projectId: string,
  judgeEndpointId: string | undefined,
): Promise<HarnessJudge | null> {
  if (!judgeEndpointId) return null;
  const judge = await prisma.judgeEndpoint.findFirst({
    where: { id: judgeEndpointId, projectId },
    select: { id: true, name: true, baseUrl: true, model: true, archivedAt: true },
  });
  if (!judge) throw new NotFoundError("No such judge endpoint in this project.");
  if (judge.archivedAt)
    throw new ValidationError(`Endpoint ${judge.name} is archived: restore it on the Judge page to judge with it.`);
  return { id: judge.id, name: judge.name, baseUrl: judge.baseUrl, model: judge.model };
}

/** The newest frame set of each of these videos. */
async function newestFrameSets(prisma: PrismaClient, videoIds: string[]): Promise<Map<string, string>> {
  const frameSets = await prisma.frameSet.findMany({
    where: { videoId: { in: videoIds } },
    orderBy: { createdAt: "desc" },
    select: { id: true, videoId: true },
  });
  return new Map(frameSets.reverse().map((f) => [f.videoId, f.id]));
}

/**
 * The run's videos, as an own run's (video lists, review queues and the run's page go through them): each on its
 * newest frame set, which the judge never shows (a video without frames is left out of those lists). The videos
 * the judge decides stay queued for the engine; the others are done, with the summary the pipeline would write.
 */
function planRunVideos(
  frameSets: Map<string, string>,
  judgedVideos: readonly string[],
  decisions: readonly HarnessDecision[],
  baseline: Map<string, BaselineAnswer> | null,
): HarnessRunVideo[] {
  const judgedSet = new Set(judgedVideos);
  return [...frameSets].map(([videoId, frameSetId]) => {
    if (judgedSet.has(videoId)) return { videoId, frameSetId, status: "queued" as const };
    const items = decisions
      .filter((d) => d.question.videoId === videoId)
      .map((d) => {
        const decision = "decision" in d.result ? d.result.decision : null;
        const blind = baseline?.get(d.question.itemId)?.decide;
        return {
          itemId: d.question.itemId,
          outcome: decision?.outcome ?? "unanswerable",
          textOnlyOutcome: baseline
            ? blind?.status === "done"
              ? (blind.output as QaDecision).outcome
              : "unanswerable"
            : null,
          decidedBy: decision ? "letter" : null,
        };
      });
    return {
      videoId,
      frameSetId,
      status: "done" as const,
      summary: { items, complete: items.every((item) => item.outcome !== "unanswerable") },
    };
  });
}

/** Import one harness file as an external QA run of a question set (owners; `runs.manage`). */
export async function importHarnessRun(
  prisma: PrismaClient,
  access: ProjectAccess<"runs.manage">,
  fields: HarnessImportFields,
  bytes: Uint8Array,
  queue?: HarnessJudgeQueue,
): Promise<HarnessImportResult> {
  const { actor, projectId } = access;
  const set = await prisma.itemSet.findFirst({ where: { id: fields.questionSetId, projectId }, select: { id: true } });
  if (!set) throw new NotFoundError("No such question set in this project.");
  const { decisions, errors } = await readDecisions(
    prisma,
    projectId,
    fields,
    bytes,
    await setQuestions(prisma, set.id),
  );
  const decided = {
    correct: decisions.filter((d) => "decision" in d.result && d.result.decision.outcome === "correct").length,
    wrong: decisions.filter((d) => "decision" in d.result && d.result.decision.outcome === "wrong").length,
    undecided: decisions.filter((d) => "undecided" in d.result).length,
  };
  const toCreate = decisions.flatMap((m) => ("created" in m.question ? [m.question] : []));
  // Judging: the undecided answers' videos go through the engine, which needs a frame set to hang each on (the
  // judge sees no frames); the newest of the video's sets.
  const judge = await judgeEndpoint(prisma, projectId, fields.judgeEndpointId);
  const toJudge = judge ? decisions.filter((d) => "undecided" in d.result) : [];
  const judgedVideos = [...new Set(toJudge.map((d) => d.question.videoId))];
  const frameSets = await newestFrameSets(prisma, [...new Set(decisions.map((d) => d.question.videoId))]);
  for (const d of toJudge)
    if (!frameSets.has(d.question.videoId))
      errors.push({
        line: d.row.line,
        message: `cannot be judged yet: the video ${d.question.videoPath} has no frames (extract them first)`,
      });
  errors.sort((a, b) => a.line - b.line);
  if (fields.textOnly && fields.baselineRunId)
    throw new ValidationError(
      "A text-only run has no text-only baseline of its own: give textOnly or baselineRunId, not both.",
    );
  const baseline = fields.baselineRunId ? await baselineAnswers(prisma, projectId, fields.baselineRunId) : null;
  const base = {
    dryRun: fields.dryRun,
    ok: errors.length === 0,
    errors,
    rows: decisions.length,
    created: toCreate.length,
    decided,
    judging: toJudge.length,
    runId: null,
  };
  if (fields.dryRun || errors.length) return base;

  const plan = {
    projectId,
    setId: set.id,
    userId: actor.userId,
    endpointId: await externalEndpoint(prisma, actor, projectId, fields.model),
    fields,
    judge,
    decisions,
    toCreate,
    judging: toJudge.length,
    baseline,
    runVideos: planRunVideos(frameSets, judgedVideos, decisions, baseline),
    now: new Date(),
  };
  const runId = await prisma.$transaction((tx) => writeHarnessRun(tx, plan));
  if (judgedVideos.length) {
    if (!queue) throw new Error("importHarnessRun: judging needs a job queue");
    await queue.enqueue(judgedVideos.map((videoId) => ({ runId, videoId })));
  }
  return { ...base, runId };
}
