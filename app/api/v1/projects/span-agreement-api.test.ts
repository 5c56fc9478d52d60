import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import type { SpanAgreementReport } from "@/lib/spans/agreement/load-span-agreement";
import { SPAN_AGREEMENT_CSV_HEADER } from "@/lib/spans/agreement/span-agreement-csv";
import { seedFinishedRun } from "@/testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET } from "./[projectId]/agreement/spans/route";

let projectId: string;
let runId: string;
let otherRunId: string;
let viewerKey: string;
let strangerKey: string;
const ctx = (id: string) => ({ params: Promise.resolve({ projectId: id }) });
const get = (key: string, query: string, id = projectId) =>
  GET(
    new Request(`http://x/api/v1/projects/${id}/agreement/spans?${query}`, {
      headers: { authorization: `Bearer ${key}` },
    }),
    ctx(id),
  );

beforeAll(async () => {
  const [owner, reviewer, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  const project = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "Span API" });
  projectId = project.projectId;
  await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  const seeded = { scores: () => [], outcome: () => ({ verdict: false, overall: 90 }) };
  runId = (await seedFinishedRun(prisma, owner, projectId, project.videoIds, seeded)).runId;
  const other = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "Other" });
  otherRunId = (await seedFinishedRun(prisma, owner, other.projectId, other.videoIds, seeded)).runId;
  const videoId = project.videoIds[0]!;
  await prisma.video.update({ where: { id: videoId }, data: { frameCount: 10 } });
  const base = { projectId, videoId, task: "hallucination", label: "s1", startS: 0, endS: 0.5 };
  await prisma.span.createMany({
    data: [
      { ...base, startFrame: 0, endFrame: 4, authorKind: "reviewer", authorId: reviewer.userId },
      { ...base, startFrame: 2, endFrame: 4, authorKind: "judge", authorId: `run:${runId}`, runId },
    ],
  });
  viewerKey = (await createApiKey(prisma, viewer.userId, "t")).key;
  strangerKey = (await createApiKey(prisma, stranger.userId, "t")).key;
});

describe("GET /api/v1/projects/:id/agreement/spans", () => {
  it("gives a member the report: the judge against the reviewer, per label", async () => {
    const response = await get(viewerKey, `task=hallucination&runId=${runId}`);
    expect(response.status).toBe(200);
    const report = (await response.json()) as SpanAgreementReport;
    expect(report).toMatchObject({
      task: "hallucination",
      runId,
      matching: "greedy_iou",
      thresholds: [0.1, 0.3, 0.5, 0.7],
    });
    expect(report.labels.map((l) => l.label)).toEqual(["s1"]);
    const [comparison] = report.labels[0]!.comparisons;
    // Reviewer 0–4, judge 2–4: IoU 3/5, matched at 0.1–0.5, not at 0.7.
    expect(comparison).toMatchObject({ kind: "judge_person", videos: 1, referenceSpans: 1, predictionSpans: 1 });
    expect(comparison!.thresholds.map((t) => t.matched)).toEqual([1, 1, 1, 0]);
    expect(comparison!.meanIou.value).toBeCloseTo(0.6, 12);
    expect(comparison!.frames).toMatchObject({ both: 3, referenceOnly: 2, predictionOnly: 0, neither: 5 });
  });

  it("as CSV, an attachment with one row per statistic", async () => {
    const response = await get(viewerKey, `task=hallucination&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    expect(response.headers.get("content-disposition")).toContain("_span-agreement_task-hallucination_");
    const text = await response.text();
    expect(text.startsWith(`${SPAN_AGREEMENT_CSV_HEADER.join(",")}\r\n`)).toBe(true);
    expect(text).toContain(",f1,0.7,0,");
  });

  it("answers 400 to a missing or unknown task, label or parameter, 404 to another project's run and to non-members", async () => {
    for (const bad of [
      "",
      "task=nope",
      "task=hallucination&label=nope",
      "task=hallucination&verdict=1",
      "task=hallucination&format=xml",
      `task=hallucination&runId=${"x".repeat(65)}`,
    ]) {
      const response = await get(viewerKey, bad);
      expect(response.status, bad).toBe(400);
    }
    expect((await get(viewerKey, `task=hallucination&runId=${otherRunId}`)).status).toBe(404);
    expect((await get(strangerKey, "task=hallucination")).status).toBe(404);
  });
});
