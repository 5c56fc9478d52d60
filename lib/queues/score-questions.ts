import type { PrismaClient } from "../generated/prisma/client";
import { catalogFor } from "../task-modules/task-catalogue";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import type { ScoreQuestion } from "../task-modules/queue-type-module";

/**
 * What each judge score of a video asked in the run, by score category, from the task folder that declares the run's
 * task (`TaskModule.scoreQuestions`, from the run's project's catalogue); empty when it says nothing.
 */
export async function scoreQuestionsOf(
  prisma: PrismaClient,
  task: Pick<TaskDeclaration, "id">,
  runId: string,
  videoId: string,
): Promise<ReadonlyMap<string, ScoreQuestion>> {
  const run = await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId }, select: { projectId: true } });
  const folder = (await catalogFor(prisma, run.projectId)).modules.find(
    (module) => module.scoreQuestions && module.pipelines.some((pipeline) => pipeline.task.id === task.id),
  );
  return folder?.scoreQuestions ? folder.scoreQuestions(prisma, runId, videoId) : new Map();
}

/** A question's target label: the target's name, its number among the video's questions, then the question ("Material question 2: Is it green?"). */
export function questionLabel(
  targetLabel: string,
  category: string,
  targetId: string,
  question: ScoreQuestion,
): string {
  const number = category !== targetId ? /(\d+)$/.exec(category)?.[1] : undefined;
  return `${targetLabel}${number ? ` ${number}` : ""}: ${question.text}`;
}
