import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { cli, ownerWithProject } from "./helpers";

/** What a reviewer types on one item of a two-target (s1, s2) scores queue: s1, then j, then s2, then Enter. */
export interface TypedItem {
  s1: number;
  s2: number;
}

/** Distinct digits per item, so a key applied to the wrong item or target shows in the saved values. */
export const typedItems = (count: number): TypedItem[] =>
  Array.from({ length: count }, (_, i) => ({ s1: i % 10, s2: (i * 7 + 3) % 10 }));

export const keysOf = (items: TypedItem[]) => items.flatMap((item) => [String(item.s1), "j", String(item.s2), "Enter"]);

/**
 * A project with `count` framed videos, a finished judge run scoring s1/s2 on each video's key frame,
 * a non-blind scores queue of them (one reviewer per item), and a signed-in reviewer on `page`.
 */
export async function seedReviewSession(
  page: Page,
  request: APIRequestContext,
  baseURL: string,
  count: number,
  label: string,
) {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const owner = await ownerWithProject(`${label}-owner`);
  const ownerUser = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
  const ownerActor = { userId: ownerUser.id, email: ownerUser.email, name: ownerUser.name, isAdmin: false };
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, ownerActor, {
    videoCount: count,
    keyFrames: 1,
    name: label,
  });
  const reviewer = { email: `${label}-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
  await cli("create-user", "--email", reviewer.email, "--password", reviewer.password);
  await cli("add-member", "--project", projectId, "--email", reviewer.email, "--role", "reviewer");
  const reviewerUser = await prisma.user.findUniqueOrThrow({ where: { email: reviewer.email } });

  // The judge run is the video task's own fixture (its folder's finished run): two scores on each key frame.
  const { seedFinishedRun } = await import("../testkit/tasks/hallucination/agreement-fixtures");
  await seedFinishedRun(prisma, ownerActor, projectId, videoIds, {
    endpointName: "e",
    scores: () =>
      ["s1", "s2"].map((category) => ({ stepId: "static_hallucination" as const, scopeIndex: 0, category, value: 5 })),
    outcome: () => ({ verdict: true, overall: 50, S: 5, D: 0, I: 0 }),
  });
  const ownerKey = await cli("create-api-key", "--email", owner.email);
  const created = await request.post(`/api/v1/projects/${projectId}/queues`, {
    headers: { authorization: `Bearer ${ownerKey.trim()}` },
    data: {
      name: `${label} queue`,
      filter: { prompt: "ramp" },
      scope: "scores",
      categories: ["s1", "s2"],
      reviewersPerItem: 1,
      blind: false,
    },
  });
  expect(created.status()).toBe(201);
  const { id: queueId } = (await created.json()) as { id: string };
  const signedIn = await page.request.post("/api/auth/sign-in/email", { data: reviewer, headers: { origin: baseURL } });
  expect(signedIn.ok()).toBe(true);
  const reviewerActor = { userId: reviewerUser.id, email: reviewerUser.email, name: reviewerUser.name, isAdmin: false };
  return { prisma, projectId, queueId, reviewerActor };
}

/**
 * The values the reviewer's submitted items hold, in the order they took them (what the review screen's
 * item API reads back), and how many of the typed values did not arrive: one per target that differs or is
 * missing, two per item never submitted.
 */
export async function savedAgainstTyped(seeded: Awaited<ReturnType<typeof seedReviewSession>>, typed: TypedItem[]) {
  const { prisma, queueId, reviewerActor } = seeded;
  const { getQueueItem } = await import("../lib/queues/get-queue-item");
  const { queueAccess } = await import("../testkit/testing/queue-access");
  const access = await queueAccess(prisma, reviewerActor, queueId, "scores.review");
  const taken = await prisma.reviewQueueAssignment.findMany({
    where: { queueId, reviewerId: reviewerActor.userId, status: "done" },
    orderBy: [{ claimedAt: "asc" }, { itemId: "asc" }],
    select: { itemId: true },
  });
  const saved: TypedItem[] = [];
  for (const { itemId } of taken) {
    const item = await getQueueItem(prisma, access, queueId, itemId);
    const value = (category: string) => item.targets.find((t) => t.category === category)?.mine?.value ?? -1;
    saved.push({ s1: value("s1"), s2: value("s2") });
  }
  let lost = 0;
  typed.forEach((item, i) => {
    const got = saved[i];
    lost += got ? Number(got.s1 !== item.s1) + Number(got.s2 !== item.s2) : 2;
  });
  return { saved, lost };
}
