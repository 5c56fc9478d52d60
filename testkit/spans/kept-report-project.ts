/**
 * A small project for kept and stored span agreement reports (span-agreement-cache.test.ts,
 * span-agreement-snapshot.test.ts): an owner and two reviewers, three videos of 30 frames (two Sora's, one Kling's),
 * span rows of the hallucination task's first label, and the report computed afresh to compare with.
 */
import type { Actor } from "../../lib/auth/actor";
import { projectAccess } from "../../lib/authz/permissions";
import type { PrismaClient } from "../../lib/generated/prisma/client";
import { taskSpanLabels } from "../../lib/spans/span-labels";
import type { SpanAgreementOptions } from "../../lib/spans/agreement/types";
import { builtInCatalogue } from "../../lib/task-modules/task-catalogue";
import { makeUser } from "../testing/fixtures";
import { projectWithFramedVideos } from "../testing/judge-fixtures";
import { loadSpanAgreementInput, spanAgreementWithGenerators } from "./span-agreement";

export const catalogue = builtInCatalogue();
export const label = taskSpanLabels(catalogue.findTask("hallucination")!)[0]!.id;
export const query = { task: "hallucination" };

/** A span of `author` (a reviewer, or a judge run by its id) on a video, of `label` unless told. */
export function spanRowIn(
  projectId: string,
  videoId: string,
  author: Actor | string,
  startFrame: number,
  endFrame: number,
  extra: { label?: string } = {},
) {
  const judge = typeof author === "string";
  return {
    projectId,
    videoId,
    task: "hallucination",
    label: extra.label ?? label,
    startFrame,
    endFrame,
    startS: startFrame / 10,
    endS: (endFrame + 1) / 10,
    authorKind: judge ? ("judge" as const) : ("reviewer" as const),
    authorId: judge ? `run:${author}` : author.userId,
    runId: judge ? author : null,
  };
}

/**
 * The owner, ann and bob (reviewers), and a project of three 30-frame videos: Sora, Sora, Kling. The people are made
 * unless given (users of another database than the tests' shared one).
 */
export async function keptReportProject(
  prisma: PrismaClient,
  name: string,
  people?: { owner: Actor; ann: Actor; bob: Actor },
) {
  const { owner, ann, bob } = people ?? {
    owner: await makeUser(),
    ann: await makeUser(),
    bob: await makeUser(),
  };
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 3, keyFrames: 1, name });
  for (const actor of [ann, bob])
    await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role: "reviewer" } });
  for (const [i, videoId] of videoIds.entries())
    await prisma.video.update({ where: { id: videoId }, data: { frameCount: 30, model: i < 2 ? "Sora" : "Kling" } });
  return { owner, ann, bob, projectId, videoIds };
}

/**
 * The hallucination task's report (of one label, when named) computed afresh from the database, with nothing kept, as
 * `actor` reads it.
 */
export async function freshReport(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  options: SpanAgreementOptions,
  label: string | null = null,
) {
  const access = await projectAccess(prisma, actor, projectId, "export.read");
  const scoped = label === null ? query : { ...query, label };
  const { input, generators } = await loadSpanAgreementInput(prisma, access, scoped, catalogue);
  const { whole, byGenerator } = spanAgreementWithGenerators(input, generators, options);
  return { task: "hallucination", runId: null, label, ...whole, byGenerator };
}
