import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { declaredAnswer } from "@/testkit/testing/declared-answer";
import { makeUser } from "@/testkit/testing/fixtures";
import { insertEndpoint, insertFinishedRun } from "@/testkit/testing/raw-rows";
import { labelSetImportDoneSchema, labelSetImportDryRunSchema } from "@/lib/spans/span-files/span-import.types";
import { GET as listRoute, POST as importRoute } from "./[projectId]/label-sets/route";
import { DELETE as deleteRoute } from "./[projectId]/label-sets/[labelSetId]/route";
import { GET as exportRoute } from "./[projectId]/export/spans/route";

let ownerKey: string;
let reviewerKey: string;
let reviewerId: string;
let ownerId: string;
let projectId: string;
let videoId: string;

beforeAll(async () => {
  const [owner, reviewer] = [await makeUser(), await makeUser()];
  ownerId = owner.userId;
  reviewerId = reviewer.userId;
  ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
  reviewerKey = (await createApiKey(prisma, reviewer.userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "Span files API" })).id;
  await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
  await prisma.project.update({
    where: { id: projectId },
    data: { spanLabels: [{ id: "hand", label: "Extra finger", definition: "" }] },
  });
  videoId = (
    await prisma.video.create({
      data: {
        projectId,
        sha256: "span-api".padEnd(64, "0"),
        sizeBytes: BigInt(1),
        fileName: "1.mp4",
        relativePath: "Sora/1.mp4",
        storageKey: "k/span-api.mp4",
        contentType: "video/mp4",
        status: "ready",
        createdById: owner.userId,
      },
    })
  ).id;
  const timesS = Array.from({ length: 48 }, (_, i) => i / 24);
  await prisma.videoFrameTimes.create({ data: { videoId, timesS, endS: 2, variable: false } });
});

const ctx = <T extends Record<string, string>>(params: T) => ({ params: Promise.resolve(params) });

async function post(key: string, fields: Record<string, string>, file: string, fileName = "spans.csv") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new Blob([file]), fileName);
  const response = await importRoute(
    new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }),
    ctx({ projectId }),
  );
  return { status: response.status, body: (await response.json()) as any };
}

async function download(key: string, query: string) {
  const response = await exportRoute(
    new Request(`http://x?${query}`, { headers: { authorization: `Bearer ${key}` } }),
    ctx({ projectId }),
  );
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const CSV = "video,label,start_frame,end_frame,annotator\nSora/1.mp4,hand,3,9,ann\n1.mp4,hand,12,12,bo\n";

describe("span files through the label-set and export routes", () => {
  it("dry-runs, imports, lists with its span count, exports and deletes a label set of spans", async () => {
    const dry = await post(ownerKey, { format: "spans", name: "spans" }, CSV);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, plan: { spans: 2, matchedVideos: 1, problemCount: 0 } });
    // The answers are what the route's declared schemas say: the dry run field for field, as the span format's plan
    // (the first of the schemas' options: a span file's answer; the other, another format's).
    expect(declaredAnswer(importRoute, 200, dry.body)).toEqual(dry.body);
    expect(labelSetImportDryRunSchema.options[0].parse(dry.body)).toEqual(dry.body);
    const made = await post(ownerKey, { format: "spans", name: "spans", dryRun: "false" }, CSV);
    expect(made.status).toBe(201);
    expect(() => declaredAnswer(importRoute, 201, made.body)).not.toThrow();
    expect(labelSetImportDoneSchema.options[0].parse(made.body)).toMatchObject({
      dryRun: false,
      labelSet: { spans: 2 },
    });
    const id = made.body.labelSet.id as string;
    const listed = (await (
      await listRoute(new Request("http://x", { headers: { authorization: `Bearer ${ownerKey}` } }), ctx({ projectId }))
    ).json()) as any;
    expect(listed.labelSets.find((s: any) => s.id === id)).toMatchObject({ spans: 2, judgments: 0 });
    const csv = await download(reviewerKey, `format=csv&labelSet=${id}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="framejury_.*spans.*\.csv"/);
    expect(csv.text.split("\r\n").slice(1, 3)).toEqual([
      `Sora/1.mp4,${videoId},project,hand,ann,label_set,3,9,0.125,0.4166666666666667,,`,
      `Sora/1.mp4,${videoId},project,hand,bo,label_set,12,12,0.5,0.5416666666666666,,`,
    ]);
    const deleted = await deleteRoute(
      new Request("http://x", { method: "DELETE", headers: { authorization: `Bearer ${ownerKey}` } }),
      ctx({ projectId, labelSetId: id }),
    );
    expect(deleted.status).toBe(200);
    expect(await prisma.span.count({ where: { labelSetId: id } })).toBe(0);
  });

  it("answers a file with bad rows with a 400 listing them, and a reviewer's import with a 403", async () => {
    const bad = await post(
      ownerKey,
      { format: "spans", name: "bad", dryRun: "false" },
      "video,label,start_frame,end_frame\n1.mp4,hand,40,60\n",
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.problems).toEqual([
      { row: 2, where: "line 2", message: expect.stringMatching(/outside the video \(frames 0–47\)/) },
    ]);
    expect(await prisma.labelSet.count({ where: { projectId, name: "bad" } })).toBe(0);
    expect((await post(reviewerKey, { format: "spans", name: "mine" }, CSV)).status).toBe(403);
    const taskOnOther = await post(ownerKey, { format: "generic", name: "g", task: "project" }, CSV);
    expect(taskOnOther.status).toBe(400);
  });

  it("imports a file under the id its export used, still takes the older ids, and refuses an unknown id naming the ids", async () => {
    const made = await post(ownerKey, { format: "csv", name: "by csv", dryRun: "false" }, CSV);
    expect(made.status).toBe(201);
    expect(made.body.labelSet.format).toBe("csv");
    const id = made.body.labelSet.id as string;
    const files = new Map<string, string>();
    for (const [format, fileName] of [
      ["csv", "s.csv"],
      ["jsonl", "s.jsonl"],
      ["label-studio", "s.json"],
    ] as const) {
      const exported = await download(ownerKey, `format=${format}&labelSet=${id}`);
      expect(exported.status).toBe(200);
      files.set(format, exported.text);
      const again = await post(ownerKey, { format, name: `again ${format}` }, exported.text, fileName);
      expect([format, again.status, again.body.plan]).toMatchObject([
        format,
        200,
        { format, spans: 2, problemCount: 0 },
      ]);
    }
    // The older ids the import still reads: the same readers, the label set named by its format's own id.
    const older = [
      ["spans", files.get("csv")!, "s.csv", "csv"],
      ["spans", files.get("jsonl")!, "s.jsonl", "jsonl"],
      ["label_studio_spans", files.get("label-studio")!, "s.json", "label-studio"],
    ] as const;
    for (const [alias, text, fileName, format] of older) {
      const again = await post(ownerKey, { format: alias, name: `older ${alias}` }, text, fileName);
      expect([alias, again.status, again.body.plan]).toMatchObject([alias, 200, { format, spans: 2, problemCount: 0 }]);
    }
    const unknown = await post(ownerKey, { format: "label-studio-config", name: "config" }, CSV);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/format: .*"csv"\|"jsonl"\|"label-studio"/);
    const unknownExport = await download(ownerKey, "format=spans");
    expect(unknownExport.status).toBe(400);
    expect(JSON.parse(unknownExport.text).error.message).toMatch(
      /format: .*"csv"\|"jsonl"\|"label-studio"\|"label-studio-config"/,
    );
  });

  it("exports Label Studio tasks and their config, and withholds the export from a reviewer reviewing blind", async () => {
    const made = await post(ownerKey, { format: "spans", name: "for ls", dryRun: "false" }, CSV);
    const id = made.body.labelSet.id as string;
    const ls = await download(ownerKey, `format=label-studio&labelSet=${id}`);
    const tasks = JSON.parse(ls.text);
    expect(tasks).toHaveLength(1);
    expect(tasks[0].data.framejury_video_id).toBe(videoId);
    expect(tasks[0].annotations.map((a: any) => [a.framejury_annotator, a.result[0].value.ranges])).toEqual([
      ["ann", [{ start: 4, end: 10 }]],
      ["bo", [{ start: 13, end: 13 }]],
    ]);
    const config = await download(ownerKey, `format=label-studio-config&labelSet=${id}`);
    expect(config.text).toContain('<Label value="hand" html="hand · Extra finger" hint="Extra finger"/>');

    const endpointId = await insertEndpoint(prisma, {
      projectId,
      name: "e",
      baseUrl: "http://e",
      model: "m",
      createdById: ownerId,
    });
    const runId = await insertFinishedRun(prisma, {
      projectId,
      pipeline: "hallucination",
      endpointId,
      createdById: ownerId,
      endpointSnapshot: {},
    });
    const queue = await prisma.reviewQueue.create({
      data: { projectId, name: "blind", runId, scope: "verdict", blind: true, itemCount: 1, createdById: ownerId },
    });
    const item = await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId, position: 0 } });
    await prisma.reviewQueueAssignment.create({ data: { itemId: item.id, queueId: queue.id, reviewerId } });
    const withheld = await download(reviewerKey, `format=csv&labelSet=${id}`);
    expect(withheld.status).toBe(409);
    expect(JSON.parse(withheld.text).error.message).toMatch(/This span export is hidden while you review "blind"/);
    expect((await download(ownerKey, `format=csv&labelSet=${id}`)).status).toBe(200);
  });
});
