import { randomUUID } from "node:crypto";
import type { Actor } from "../../lib/auth/actor";
import { prisma } from "../../lib/db/prisma";
import type { ProjectRole } from "../../lib/generated/prisma/client";
import { createProject } from "../../lib/projects/projects";
import { makeUser } from "./fixtures";

export interface PairVideoSpec {
  prompt: string | null;
  model: string | null;
  sampleIndex?: number | null;
  status?: "ready" | "failed" | "pending_extraction";
}

/** Stores videos (no file behind them: pairs read their prompt, model and sample index only). */
export async function makePairVideos(projectId: string, createdById: string, specs: readonly PairVideoSpec[]) {
  const ids: string[] = [];
  for (const [i, spec] of specs.entries()) {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const video = await prisma.video.create({
      data: {
        projectId,
        sha256: sha,
        sizeBytes: 1n,
        fileName: `${spec.model ?? "none"}-${i}.mp4`,
        relativePath: `${spec.model ?? "none"}/${i}.mp4`,
        storageKey: `k/${sha}`,
        contentType: "video/mp4",
        status: spec.status ?? "ready",
        prompt: spec.prompt,
        model: spec.model,
        sampleIndex: spec.sampleIndex ?? null,
        createdById,
      },
    });
    ids.push(video.id);
  }
  return ids;
}

export const GENERATORS = ["gen-a", "gen-b", "gen-c", "gen-d"];
export const PROMPTS = ["A cat jumps over a fence", "A ball rolls down a hill", "Rain falls on a lake"];

/**
 * A project of 4 generators × 3 prompts × 2 samples (24 videos), with an owner, a reviewer and a viewer; `extra`
 * adds videos (a video without a model, a prompt of one generator, …).
 */
export async function pairSetProject(extra: readonly PairVideoSpec[] = []) {
  const [owner, reviewer, viewer] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  const projectId = (await createProject(prisma, owner, { name: `pairs-${randomUUID().slice(0, 8)}` })).id;
  const members: [Actor, ProjectRole][] = [
    [reviewer, "reviewer"],
    [viewer, "viewer"],
  ];
  for (const [user, role] of members)
    await prisma.projectMember.create({ data: { projectId, userId: user.userId, role } });
  const specs: PairVideoSpec[] = [];
  for (const prompt of PROMPTS)
    for (const model of GENERATORS) for (const sampleIndex of [0, 1]) specs.push({ prompt, model, sampleIndex });
  const videoIds = await makePairVideos(projectId, owner.userId, [...specs, ...extra]);
  return { owner, reviewer, viewer, projectId, videoIds };
}
