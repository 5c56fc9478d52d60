import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { makeUser } from "@/testkit/testing/fixtures";
import { seedFinishedRun } from "@/testkit/tasks/hallucination/agreement-fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET as tableRoute } from "./[projectId]/calibration/route";
import { GET as compareRoute } from "./[projectId]/calibration/compare/route";
import { POST as importRoute } from "./[projectId]/label-sets/route";

let ownerKey: string;
let viewerKey: string;
let outsiderKey: string;
let projectId: string;
let runIds: string[];
let labelSetId: string;

const ctx = <T extends Record<string, string>>(params: T) => ({ params: Promise.resolve(params) });
const get = (route: typeof tableRoute, key: string, query: string) =>
  route(new Request(`http://x/api?${query}`, { headers: { authorization: `Bearer ${key}` } }), ctx({ projectId }));

beforeAll(async () => {
  const [owner, viewer, outsider] = [await makeUser(), await makeUser(), await makeUser()];
  const keys = await Promise.all(
    [owner, viewer, outsider].map(async (u) => (await createApiKey(prisma, u.userId, "t")).key),
  );
  [ownerKey, viewerKey, outsiderKey] = [keys[0]!, keys[1]!, keys[2]!];
  let videoIds: string[];
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 3,
    keyFrames: 1,
    name: "Calibration API",
  }));
  await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
  for (const [i, id] of videoIds.entries())
    await prisma.video.update({ where: { id }, data: { fileName: `${i + 1}.mp4`, model: "Gen_2 & co" } });
  runIds = [];
  for (const verdicts of [
    [true, false, false],
    [true, true, false],
  ]) {
    const { runId } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      scores: (v) => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: verdicts[v] ? 8 : 1 }],
      outcome: (v) => ({ verdict: verdicts[v]!, overall: 50 }),
    });
    runIds.push(runId);
  }
  // Through the API's generic format: one annotator, verdicts 1 1 0.
  const form = new FormData();
  form.set("format", "generic");
  form.set("name", "Authors");
  form.set("dryRun", "false");
  form.set(
    "file",
    new Blob(["video,annotator,target,value\n1.mp4,paper,verdict,1\n2.mp4,paper,verdict,1\n3.mp4,paper,verdict,0\n"]),
    "labels.csv",
  );
  const response = await importRoute(
    new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${ownerKey}` }, body: form }),
    ctx({ projectId }),
  );
  expect(response.status).toBe(201);
  labelSetId = ((await response.json()) as { labelSet: { id: string } }).labelSet.id;
});

describe("calibration API", () => {
  it("serves the paper's table as JSON, CSV and LaTeX to every member", async () => {
    const json = await get(tableRoute, viewerKey, `labelSetId=${labelSetId}&runId=${runIds[0]}&iterations=200`);
    expect(json.status).toBe(200);
    const body = (await json.json()) as any;
    expect(body.table.groups.at(-1).cells.verdict).toMatchObject({ n: 3, counts: { tp: 1, fp: 0, fn: 1, tn: 1 } });

    const csv = await get(
      tableRoute,
      viewerKey,
      `labelSetId=${labelSetId}&runId=${runIds[0]}&format=csv&iterations=200`,
    );
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await csv.text()).toContain("Authors,");

    const tex = await get(
      tableRoute,
      viewerKey,
      `labelSetId=${labelSetId}&runId=${runIds[0]}&format=latex&iterations=200`,
    );
    const text = await tex.text();
    expect(tex.headers.get("content-disposition")).toMatch(/attachment; filename=".*\.tex"/);
    expect(text).toContain("\\begin{tabular}");
    expect(text).toMatch(/^Gen\\_2 \\& co & /m);
  });

  it("refuses bad queries and outsiders", async () => {
    expect((await get(tableRoute, ownerKey, `runId=${runIds[0]}`)).status).toBe(400);
    expect((await get(tableRoute, ownerKey, `labelSetId=${labelSetId}&runId=${runIds[0]}&threshold=11`)).status).toBe(
      400,
    );
    expect((await get(tableRoute, outsiderKey, `labelSetId=${labelSetId}&runId=${runIds[0]}`)).status).toBe(404);
  });

  it("compares the two runs", async () => {
    const response = await get(
      compareRoute,
      viewerKey,
      `runIds=${runIds.join(",")}&labelSetId=${labelSetId}&iterations=200`,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.comparison.runs.map((r: any) => r.accuracy)).toEqual([2 / 3, 1]);
    expect(body.comparison.pairs[0].mcnemar).toMatchObject({ b: 0, c: 1, p: 1 });
    expect((await get(compareRoute, viewerKey, `runIds=${runIds[0]}&labelSetId=${labelSetId}`)).status).toBe(400);
  });
});
