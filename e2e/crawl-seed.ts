import fs from "node:fs";
import { cli } from "./helpers";
import type { CrawlSeedContext, TaskCrawlSeed } from "../testkit/crawl/task-crawl";
import type { CrawlRole, CrawlSeed } from "./pages";

export interface CrawlAccount {
  email: string;
  password: string;
}

/**
 * The project the page crawl walks: videos with frames and real files, a finished run judged by the
 * stub LLM (a test tool) through the app's own queue and worker, a reviewer's judgments, a queue with
 * an item held by the owner and one by the reviewer, a video with frames but no prompt and no
 * judgments, and a video registered through the API that waits for frames; then each task folder's
 * own data (`crawlSeed` of its kit, testkit/task-kit.ts, in TASK_FOLDER_IDS order). Accounts for every role.
 */
export async function seedCrawlProject(
  baseURL: string,
): Promise<{ seed: CrawlSeed; accounts: Record<Exclude<CrawlRole, "signedOut">, CrawlAccount> }> {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  // The composition root first: the application context (the task catalogue the core reads).
  (await import("../lib/app-context/app-context")).appContext();
  const { prisma } = await import("../lib/db/prisma");
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { mediaFixtures, uniqueMp4 } = await import("../testkit/testing/media-fixtures");
  const { getStorage } = await import("../lib/storage/storage");
  const { reviewScore, reviewVideoOutcome } = await import("../lib/reviews/reviews");
  const { projectAccess } = await import("../lib/authz/permissions");
  const { TASK_KITS } = await import("../testkit/task-kits");
  const { BUILT_IN_DECLARATIONS } = await import("../lib/tasks/registry");
  // The core's run: one of a registered pipeline that judges videos and gives a verdict, whichever task that is.
  const videoTask = BUILT_IN_DECLARATIONS.tasks.find((task) => task.subject === "video" && task.verdict);
  if (!videoTask) throw new Error("The crawl needs a registered pipeline that judges videos with a verdict.");

  const stamp = Date.now();
  const roles = ["owner", "reviewer", "viewer", "outsider", "admin"] as const;
  const accounts = Object.fromEntries(
    roles.map((role) => [role, { email: `crawl-${role}-${stamp}@example.test`, password: `${role}-password-1` }]),
  ) as Record<(typeof roles)[number], CrawlAccount>;
  for (const role of roles) {
    await cli(
      "create-user",
      "--email",
      accounts[role].email,
      "--password",
      accounts[role].password,
      ...(role === "admin" ? ["--admin"] : []),
    );
  }
  const actorOf = async (email: string) => {
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    return { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin };
  };
  const owner = await actorOf(accounts.owner.email);
  const reviewer = await actorOf(accounts.reviewer.email);

  // Four framed videos; the last keeps its frames but loses its prompt and is left out of the run.
  // The first three also get a uniform set of 8 frames, which the caption runs read.
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 4,
    keyFrames: 2,
    name: "Page crawl",
    uniformFrames: 8,
    uniformVideos: 3,
  });
  await cli("add-member", "--project", projectId, "--email", accounts.reviewer.email, "--role", "reviewer");
  await cli("add-member", "--project", projectId, "--email", accounts.viewer.email, "--role", "viewer");
  const mp4 = fs.readFileSync(mediaFixtures().goodMp4);
  for (const id of videoIds) {
    const video = await prisma.video.findUniqueOrThrow({ where: { id } });
    await getStorage().put(video.storageKey, mp4);
    await prisma.video.update({
      where: { id },
      data: {
        sizeBytes: BigInt(mp4.length),
        durationS: 2,
        fps: 25,
        width: 320,
        height: 180,
        model: "crawl-model",
        sampleIndex: 0,
      },
    });
  }
  const judgedVideoIds = videoIds.slice(0, 3);
  const promptlessVideoId = videoIds[3]!;
  await prisma.video.update({
    where: { id: promptlessVideoId },
    data: { prompt: null, relativePath: "unlabelled-clip.mp4", dimensions: [] },
  });

  const ownerKey = (await cli("create-api-key", "--email", accounts.owner.email)).trim();
  const reviewerKey = (await cli("create-api-key", "--email", accounts.reviewer.email)).trim();
  const adminKey = (await cli("create-api-key", "--email", accounts.admin.email)).trim();
  const api = async <T>(key: string, route: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${baseURL}${route}`, {
      ...init,
      headers: {
        authorization: `Bearer ${key}`,
        ...(init.body && typeof init.body === "string" ? { "content-type": "application/json" } : {}),
      },
    });
    const body = (await response.json().catch(() => null)) as T;
    if (!response.ok) throw new Error(`${init.method ?? "GET"} ${route}: ${response.status} ${JSON.stringify(body)}`);
    return body;
  };

  // Waiting for frames: registered through the API, as a script would.
  const form = new FormData();
  form.set("path", "crawl-model/Mechanics/A ball waits for its frames-0.mp4");
  form.set("file", new Blob([fs.readFileSync(uniqueMp4("crawl-pending"))]), "A ball waits for its frames-0.mp4");
  const pending = await api<{ id: string; status: string }>(ownerKey, `/api/v1/projects/${projectId}/videos`, {
    method: "POST",
    body: form,
  });
  if (pending.status !== "pending_extraction")
    throw new Error(`The API-registered video is ${pending.status}, expected pending_extraction.`);

  // A finished run of that video pipeline over the judged videos.
  const stub = await startStubLlm({ latencyMs: 5 });
  let runId: string;
  let ensembleRunId: string;
  const tasks: Record<string, TaskCrawlSeed> = {};
  const waitForRun = async (id: string) => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const run = await api<{ status: string }>(ownerKey, `/api/v1/runs/${id}`);
      if (run.status === "done") return;
      if (["failed", "cancelled"].includes(run.status) || Date.now() > deadline)
        throw new Error(`The crawl's run ${id} ended ${run.status}.`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  };
  const upload = (fields: Record<string, string>, fileName: string, bytes: Uint8Array) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    body.set("file", new Blob([new Uint8Array(bytes)]), fileName);
    return body;
  };
  try {
    const endpoint = await api<{ id: string }>(ownerKey, `/api/v1/projects/${projectId}/endpoints`, {
      method: "POST",
      body: JSON.stringify({
        name: "Stub (simulated)",
        baseUrl: stub.baseURL,
        model: "stub-vision",
        apiKey: "sk-crawl-never-shown",
        maxConcurrency: 8,
      }),
    });
    // An ensemble run first (two samples at temperature 0.7), so the plain run below stays the project's latest.
    ({ id: ensembleRunId } = await api<{ id: string }>(ownerKey, `/api/v1/projects/${projectId}/runs`, {
      method: "POST",
      body: JSON.stringify({
        pipeline: videoTask.id,
        endpointId: endpoint.id,
        videoIds: judgedVideoIds,
        ensemble: { kind: "samples", samples: 2, temperature: 0.7 },
      }),
    }));
    await waitForRun(ensembleRunId);
    ({ id: runId } = await api<{ id: string }>(ownerKey, `/api/v1/projects/${projectId}/runs`, {
      method: "POST",
      body: JSON.stringify({ pipeline: videoTask.id, endpointId: endpoint.id, videoIds: judgedVideoIds }),
    }));
    await waitForRun(runId);

    // Each task's own data (its sets, runs, queues), in TASK_FOLDER_IDS order.
    const context: CrawlSeedContext = {
      baseURL,
      prisma,
      owner,
      projectId,
      judgedVideoIds,
      upload,
      waitForRun,
      stubBaseUrl: stub.baseURL,
      endpointId: endpoint.id,
      api: (route, init) => api(ownerKey, route, init),
    };
    for (const kit of TASK_KITS) if (kit.crawlSeed) tasks[kit.id] = await (await kit.crawlSeed())(context);

    // A rubric task (the physical plausibility example: per cluster, with a presence rule) and a finished run of it:
    // the Rubric tasks page lists it, and the run's video list and video pages read its declaration from the
    // browser's task registry (the project layout registers it).
    const { createRubricTask } = await import("../lib/rubrics/rubric-tasks");
    const rubric = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
      file: fs.readFileSync("lib/rubrics/examples/physical-plausibility.yaml", "utf8"),
    });
    // The app's own registry reads rubric tasks at most a second old.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const rubricRun = await api<{ id: string }>(ownerKey, `/api/v1/projects/${projectId}/runs`, {
      method: "POST",
      body: JSON.stringify({ pipeline: rubric.pipeline, endpointId: endpoint.id, videoIds: judgedVideoIds }),
    });
    await waitForRun(rubricRun.id);
    tasks.rubrics = { taskIds: [rubric.id], runIds: [rubricRun.id] };
  } finally {
    await stub.close();
  }

  // The reviewer's own judgments on the first video: a score and the task's verdict.
  const score = await prisma.score.findFirstOrThrow({
    where: { runId, videoId: judgedVideoIds[0]! },
    orderBy: { category: "asc" },
  });
  const reviewing = await projectAccess(prisma, reviewer, projectId, "scores.review");
  await reviewScore(prisma, reviewing, score.id, { value: score.value >= 5 ? 1 : 9, note: "crawl" });
  await reviewVideoOutcome(prisma, reviewing, runId, judgedVideoIds[0]!, videoTask.verdict!.metricId, { value: 1 });

  // A queue of the run's verdicts; the owner, the reviewer and the site admin (an owner everywhere) each hold one item.
  const queue = await api<{ id: string }>(ownerKey, `/api/v1/projects/${projectId}/queues`, {
    method: "POST",
    body: JSON.stringify({ name: "Crawl queue", runId, scope: "verdict", reviewersPerItem: 1 }),
  });
  const ownerItem = await api<{ itemId: string | null }>(ownerKey, `/api/v1/queues/${queue.id}/next`, {
    method: "POST",
  });
  const reviewerItem = await api<{ itemId: string | null }>(reviewerKey, `/api/v1/queues/${queue.id}/next`, {
    method: "POST",
  });
  const adminItem = await api<{ itemId: string | null }>(adminKey, `/api/v1/queues/${queue.id}/next`, {
    method: "POST",
  });
  if (!ownerItem.itemId || !reviewerItem.itemId || !adminItem.itemId)
    throw new Error("The crawl's queue gave no item to claim.");

  // A pair set of the judged videos with one person's verdicts: the pairwise pages (list, set, leaderboard,
  // agreement, raters) have a board to show.
  const pairVideos = await prisma.video.findMany({
    where: { id: { in: judgedVideoIds } },
    select: { id: true, fileName: true },
    orderBy: { id: "asc" },
  });
  const pairSet = await prisma.pairSet.create({
    data: {
      projectId,
      name: "Crawl pairs",
      aspects: [{ id: "overall", label: "Overall", guideline: "", levels: 4 }],
      origin: { source: "project", design: "all_pairs", sample: "same", seed: 1 },
      createdById: owner.userId,
      pairCount: pairVideos.length - 1,
      pairs: {
        create: pairVideos.slice(1).map((video, position) => ({
          projectId,
          pairKey: `${pairVideos[0]!.id}:${video.id}`,
          position,
          videoAId: pairVideos[0]!.id,
          videoBId: video.id,
          generatorA: "Crawl A",
          generatorB: `Crawl ${String.fromCharCode(66 + position)}`,
          prompt: "A ball rolls",
          nameA: pairVideos[0]!.fileName,
          nameB: video.fileName,
        })),
      },
    },
    include: { pairs: true },
  });
  for (const pair of pairSet.pairs)
    await prisma.pairVerdict.create({
      data: {
        projectId,
        pairSetId: pairSet.id,
        pairId: pair.id,
        aspect: "overall",
        raterKind: "reviewer",
        raterId: reviewer.userId,
        verdict: "A",
        aShownOn: "left",
        msToVerdict: 3000,
      },
    });
  tasks.pairwise = { pairSetIds: [pairSet.id] };

  // A blind pair set of the judged videos, for the side-by-side review page (every reviewing role claims from it).
  const { seedReviewPairs } = await import("../testkit/pairwise/review-pairs");
  const reviewPairs = await seedReviewPairs(prisma, owner, projectId, {
    videos: judgedVideoIds.slice(0, 2).map((id, i) => ({ id, model: `crawl-model-${i}`, prompt: "crawl prompt" })),
    name: "Crawl pairs to review",
  });
  tasks.pairReview = { pairSetIds: [reviewPairs.set.id] };

  await prisma.$disconnect();
  return {
    accounts,
    seed: {
      projectId,
      runId,
      ensembleRunId,
      queueId: queue.id,
      judgedVideoIds,
      promptlessVideoId,
      pendingVideoId: pending.id,
      itemIdByRole: { owner: ownerItem.itemId, reviewer: reviewerItem.itemId, admin: adminItem.itemId },
      tasks,
    },
  };
}
