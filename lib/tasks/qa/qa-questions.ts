/** The project's questions: the list, one question with every QA run's answer to it, and the QA page's filter values. */
import type { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import type { questionListQuerySchema } from "./qa-query";
import { runQuestionsMatching } from "./qa-run-questions";
import { QA_PIPELINE, runSelect, summaryOf } from "./qa-run-summary";
import type { QuestionPayload } from "./question-set-import";

export async function listQuestions(
  prisma: PrismaClient,
  access: ProjectAccess,
  query: z.output<typeof questionListQuerySchema>,
) {
  const { projectId } = access;
  const where = {
    projectId,
    kind: "question",
    ...(query.setId ? { setId: query.setId } : {}),
    ...(query.videoId ? { videoId: query.videoId } : {}),
    ...(query.category !== undefined ? { group: query.category === "(none)" ? "" : query.category } : {}),
    ...(query.questionFormat ? { payload: { path: ["format"], equals: query.questionFormat } } : {}),
    ...(query.granularity ? { AND: [{ payload: { path: ["granularity"], equals: query.granularity } }] } : {}),
  };
  const [total, rows] = await Promise.all([
    prisma.item.count({ where }),
    prisma.item.findMany({
      where,
      orderBy: [{ video: { relativePath: "asc" } }, { externalId: "asc" }, { id: "asc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: {
        id: true,
        setId: true,
        externalId: true,
        payload: true,
        video: { select: { id: true, relativePath: true } },
      },
    }),
  ]);
  return { total, page: query.page, pageSize: query.pageSize, questions: rows.map((row) => questionView(row)) };
}

function questionView(row: {
  id: string;
  setId: string;
  externalId: string;
  payload: unknown;
  video: { id: string; relativePath: string };
}) {
  const p = row.payload as QuestionPayload;
  return {
    id: row.id,
    setId: row.setId,
    externalId: row.externalId,
    video: row.video,
    question: p.question,
    format: p.format,
    options: p.options,
    answer: p.answer,
    category: p.category,
    granularity: p.granularity,
    extra: p.extra,
  };
}

/**
 * One question for its page and `GET /questions/:id`: the question, and every QA run of its project that
 * answered it (newest first) with the frames that run showed the model, both results and the id of the
 * run's correctness score (`scoreId`, what reviewers judge the answer through; null when undecided).
 */
export async function questionDetail(prisma: PrismaClient, access: ProjectAccess, questionId: string) {
  const row = await prisma.item.findFirst({
    where: { id: questionId, projectId: access.projectId },
    select: {
      id: true,
      kind: true,
      projectId: true,
      setId: true,
      externalId: true,
      payload: true,
      video: { select: { id: true, relativePath: true } },
    },
  });
  if (!row || row.kind !== "question") throw new NotFoundError("No such question.");
  const runItems = await prisma.runItem.findMany({
    where: { itemId: questionId, run: { pipeline: QA_PIPELINE } },
    orderBy: { run: { createdAt: "desc" } },
    select: { runId: true, videoId: true, run: { select: runSelect } },
  });
  const results = [];
  for (const { run, videoId } of runItems) {
    const summary = summaryOf(run);
    const [result] = await runQuestionsMatching(prisma, summary, { itemIds: [questionId] });
    const runVideo = await prisma.runVideo.findUnique({
      where: { runId_videoId: { runId: run.id, videoId } },
      select: { frameSetId: true },
    });
    const frameSet = runVideo
      ? await prisma.frameSet.findUnique({
          where: { id: runVideo.frameSetId },
          select: {
            id: true,
            mode: true,
            frameCount: true,
            parameters: true,
            frames: {
              orderBy: { index: "asc" },
              select: { id: true, index: true, timestampS: true, width: true, height: true },
            },
          },
        })
      : null;
    // The run's decision as a score (none while pending or when unanswerable): reviewers judge the answer through it.
    const score = await prisma.score.findFirst({
      where: { runId: run.id, itemId: questionId, category: "correctness" },
      select: { id: true },
    });
    if (result)
      results.push({
        run: summary,
        frameSet,
        scoreId: score?.id ?? null,
        result: result.result,
        textOnly: result.textOnly,
        rightWithoutVideo: result.rightWithoutVideo,
      });
  }
  return { projectId: row.projectId, question: questionView(row), results };
}

/** The values the QA page's filters offer: the categories and videos of the project's questions. */
export async function qaFilterOptions(prisma: PrismaClient, access: ProjectAccess) {
  const { projectId } = access;
  const [categories, videos, sets] = await Promise.all([
    prisma.item.findMany({
      where: { projectId, kind: "question" },
      distinct: ["group"],
      select: { group: true },
      orderBy: { group: "asc" },
    }),
    prisma.video.findMany({
      where: { projectId, items: { some: { kind: "question" } } },
      select: { id: true, relativePath: true },
      orderBy: { relativePath: "asc" },
      take: 1000,
    }),
    prisma.itemSet.count({ where: { projectId, kind: "questions" } }),
  ]);
  return { categories: categories.map((c) => (c.group === "" ? "(none)" : c.group)), videos, questionSets: sets };
}
