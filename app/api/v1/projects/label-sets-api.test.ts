import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { GET as listRoute, POST as importRoute } from "./[projectId]/label-sets/route";
import { DELETE as deleteRoute } from "./[projectId]/label-sets/[labelSetId]/route";

let ownerKey: string;
let reviewerKey: string;
let projectId: string;

async function labelSheet(): Promise<Blob> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet("labels");
  ws.addRow([
    "Example",
    "Is_Hallucination",
    "Is_Prompt_Consistency",
    "Static_Hallucination",
    "Dynamic_Hallucination",
    "model",
  ]);
  ws.addRow(["1.mp4", 1, 1, "s1.s7", "d5, s2", "Sora"]);
  ws.addRow(["2.mp4", 0, 1, "-", "-", "Sora"]);
  return new Blob([new Uint8Array(await workbook.xlsx.writeBuffer())]);
}

beforeAll(async () => {
  const [owner, reviewer] = [await makeUser(), await makeUser()];
  ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
  reviewerKey = (await createApiKey(prisma, reviewer.userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "Label sets API" })).id;
  await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
  for (const name of ["1.mp4", "2.mp4"]) {
    await prisma.video.create({
      data: {
        projectId,
        sha256: name.padEnd(64, "0"),
        sizeBytes: BigInt(1),
        fileName: name,
        relativePath: `Sora/${name}`,
        storageKey: `k/${name}`,
        contentType: "video/mp4",
        status: "ready",
        createdById: owner.userId,
      },
    });
  }
});

const ctx = <T extends Record<string, string>>(params: T) => ({ params: Promise.resolve(params) });

async function post(key: string, fields: Record<string, string>, withFile = true) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (withFile) form.set("file", await labelSheet(), "T2VHaluBench.xlsx");
  const response = await importRoute(
    new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }),
    ctx({ projectId }),
  );
  return { status: response.status, body: (await response.json()) as any };
}

describe("label-set API", () => {
  it("dry-runs by default, imports with dryRun=false, lists, and deletes exactly its judgments", async () => {
    const dry = await post(ownerKey, { name: "authors", citation: "T2VHaluBench" });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      labelSet: null,
      plan: { rows: 2, matchedVideos: 2, judgments: { verdict: 2, presence: 2 * 20 } },
    });
    expect(dry.body.plan.issues.map((i: any) => [i.row, i.column, i.action, i.message])).toEqual([
      [2, "Static_Hallucination", "interpreted", "'.' read as ',' between codes"],
      [2, "Dynamic_Hallucination", "interpreted", "s2 is a static code: read as present in its own kind"],
    ]);
    expect(await prisma.humanJudgment.count({ where: { projectId } })).toBe(0);

    expect((await post(reviewerKey, { name: "authors", dryRun: "false" })).status).toBe(403);
    expect((await post(ownerKey, { name: "authors" }, false)).status).toBe(400);
    expect((await post(ownerKey, { name: "authors", match: "column" })).body.error.message).toMatch(/mappingColumn/);

    const imported = await post(ownerKey, { name: "authors", citation: "T2VHaluBench", dryRun: "false" });
    expect(imported.status).toBe(201);
    expect(imported.body.labelSet).toMatchObject({
      name: "authors",
      citation: "T2VHaluBench",
      fileName: "T2VHaluBench.xlsx",
      judgments: 42,
    });
    expect(imported.body.labelSet.sha256).toMatch(/^[0-9a-f]{64}$/);

    const list = await listRoute(
      new Request("http://x", { headers: { authorization: `Bearer ${reviewerKey}` } }),
      ctx({ projectId }),
    );
    const { labelSets } = (await list.json()) as any;
    expect(labelSets.map((s: any) => [s.name, s.judgments, s.reviewerIds])).toEqual([
      ["authors", 42, [`labelset:${imported.body.labelSet.id}`]],
    ]);

    const vbench = new FormData();
    vbench.set("format", "vbench");
    vbench.set("name", "VBench");
    vbench.set(
      "file",
      new Blob([JSON.stringify({ subject_consistency: [0.9, [{ video_path: "/x/Sora/2.mp4", video_results: 0.9 }]] })]),
      "eval_results.json",
    );
    const vbenchDry = await importRoute(
      new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${ownerKey}` }, body: vbench }),
      ctx({ projectId }),
    );
    expect(vbenchDry.status).toBe(200);
    expect(await vbenchDry.json()).toMatchObject({
      dryRun: true,
      plan: { results: 1, matchedVideos: 1, judgments: { subject_consistency: 1 } },
    });

    const del = await deleteRoute(
      new Request("http://x", { method: "DELETE", headers: { authorization: `Bearer ${ownerKey}` } }),
      ctx({ projectId, labelSetId: imported.body.labelSet.id }),
    );
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ deletedJudgments: 42 });
    expect(await prisma.humanJudgment.count({ where: { projectId } })).toBe(0);
  });
});
