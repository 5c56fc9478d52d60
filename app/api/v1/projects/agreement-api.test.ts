import { beforeAll, describe, expect, it } from "vitest";
import type { AgreementReport } from "@/lib/agreement/types";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { reviewScore, reviewVideoOutcome } from "@/lib/reviews/reviews";
import { seedFinishedRun } from "@/testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET as getAgreement } from "./[projectId]/agreement/route";
import { GET as getExport } from "./[projectId]/export/route";
import { projectAccess } from "@/lib/authz/permissions";

let projectId: string;
let runId: string;
let viewerKey: string;
let strangerKey: string;
const ctx = (id: string) => ({ params: Promise.resolve({ projectId: id }) });
const get = (handler: typeof getAgreement, key: string, query: string, id = projectId) =>
  handler(
    new Request(`http://x/api/v1/projects/${id}/x?${query}`, { headers: { authorization: `Bearer ${key}` } }),
    ctx(id),
  );

beforeAll(async () => {
  const [owner, reviewer, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  const project = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1, name: "Agreement API" });
  projectId = project.projectId;
  await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  const run = await seedFinishedRun(prisma, owner, projectId, project.videoIds, {
    scores: (v) => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s2", value: v === 0 ? 9 : 1 }],
    outcome: (v) => ({ verdict: v === 0, overall: v === 0 ? 30 : 95 }),
  });
  runId = run.runId;
  await reviewScore(
    prisma,
    await projectAccess(prisma, reviewer, projectId, "scores.review"),
    run.scoreIds.get("0:static_hallucination:0:s2")!,
    {
      value: 8,
      note: "-2 looks like a formula",
    },
  );
  await reviewScore(
    prisma,
    await projectAccess(prisma, reviewer, projectId, "scores.review"),
    run.scoreIds.get("1:static_hallucination:0:s2")!,
    { value: 6 },
  );
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, reviewer, projectId, "scores.review"),
    runId,
    project.videoIds[0]!,
    "verdict",
    { value: 1 },
  );
  viewerKey = (await createApiKey(prisma, viewer.userId, "t")).key;
  strangerKey = (await createApiKey(prisma, stranger.userId, "t")).key;
});

describe("GET /api/v1/projects/:id/agreement", () => {
  it("gives a viewer the report as JSON", async () => {
    const response = await get(getAgreement, viewerKey, `runId=${runId}`);
    expect(response.status).toBe(200);
    const report = (await response.json()) as AgreementReport;
    expect(report.summary).toMatchObject({ videos: 2, reviewedItems: 3, judgments: 3, reviewers: 1 });
    // s2: 9 vs 8 (yes/yes), 1 vs 6 (no/yes: fn); verdict yes/yes
    expect(report.humanVsJudge.consensus.binary.confusion).toEqual({ tp: 2, fp: 0, fn: 1, tn: 0 });
  });

  it("as CSV, an attachment", async () => {
    const response = await get(getAgreement, viewerKey, `runId=${runId}&format=csv&threshold=7`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="framejury_Agreement-API_agreement_runId-${runId}_${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    const text = await response.text();
    expect(text.startsWith("comparison,breakdown,group,statistic,value,ci_low,ci_high,n\r\n")).toBe(true);
    expect(text).toContain("summary,all,all,threshold,7,,,\r\n");
    // threshold 7: s2 6 → no; judge 1 → no: tn now
    expect(text).toContain("judge_vs_consensus,all,binary,tn,1,,,3\r\n");
  });

  it("answers 404 to non-members, 400 to malformed parameters", async () => {
    expect((await get(getAgreement, strangerKey, "")).status).toBe(404);
    expect((await get(getAgreement, viewerKey, "", "nope")).status).toBe(404);
    for (const bad of [
      "threshold=abc",
      "threshold=11",
      "verdict=maybe",
      "format=xml",
      "category=s99",
      "runId=bad%20id",
      "overallMax=200",
    ]) {
      const response = await get(getAgreement, viewerKey, bad);
      expect(response.status, bad).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    }
    expect((await get(getAgreement, viewerKey, "runId=unknownrun")).status).toBe(404);
  });
});

describe("GET /api/v1/projects/:id/export", () => {
  it("streams the judged items as a CSV attachment, formula cells neutralised", async () => {
    const response = await get(getExport, viewerKey, `runId=${runId}`);
    expect(response.status).toBe(200);
    // Named as the agreement page's link names it: project, what, filter, day (the link downloads straight to disk).
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="framejury_Agreement-API_items_runId-${runId}_${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    const lines = (await response.text()).split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(1 + 2 * 3); // header; per video s2, verdict, overall
    expect(lines.join("\n")).toContain(",'-2 looks like a formula,");
  });

  it("as JSONL", async () => {
    const response = await get(getExport, viewerKey, `runId=${runId}&format=jsonl`);
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    const rows = (await response.text())
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { target: string; reviews: unknown[] });
    expect(rows.map((r) => r.target)).toEqual(["score", "verdict", "overall", "score", "verdict", "overall"]);
  });

  it("answers 404 to non-members, 400 to a bad format", async () => {
    expect((await get(getExport, strangerKey, "")).status).toBe(404);
    expect((await get(getExport, viewerKey, "format=xlsx")).status).toBe(400);
  });
});
