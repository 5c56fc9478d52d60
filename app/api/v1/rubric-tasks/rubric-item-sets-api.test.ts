/**
 * Issue 25, rubric tasks whose subject is an item: importing a task's items through the API with the generic item
 * importer. A dry run lists every unreadable row with its line and stores nothing; the import stores one set of
 * the task's item kind, listed by the GET; a task that judges videos has no items; a reviewer may not import.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { addMember } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET as listSetsRoute, POST as importRoute } from "./[rubricTaskId]/item-sets/route";
import { POST as createRoute } from "../projects/[projectId]/rubric-tasks/route";
import { projectAccess } from "@/lib/authz/permissions";

let owner: Actor;
let ownerKey: string;
let reviewerKey: string;
let projectId: string;
let paths: string[];

const ITEM_RUBRIC = {
  name: "Caption faithfulness",
  subject: {
    kind: "item",
    fields: [
      { id: "text", label: "caption" },
      { id: "reference", label: "reference caption", required: false },
    ],
  },
  frames: { mode: "uniform", count: 4 },
  criteria: [
    { id: "faithful", name: "Faithful", definition: "Everything the caption says is in the video.", type: "boolean" },
  ],
  prompt: "{{frames}}\nCaption: {{item.text}}\nReference: {{item.reference}}\n{{criteria}}",
};

beforeAll(async () => {
  owner = await makeUser();
  const reviewer = await makeUser();
  ownerKey = (await createApiKey(prisma, owner.userId, "items")).key;
  reviewerKey = (await createApiKey(prisma, reviewer.userId, "items")).key;
  const made = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    uniformFrames: 4,
    name: "Rubric items API",
  });
  projectId = made.projectId;
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: reviewer.email,
    role: "reviewer",
  });
  paths = (
    await prisma.video.findMany({
      where: { projectId },
      orderBy: { relativePath: "asc" },
      select: { relativePath: true },
    })
  ).map((v) => v.relativePath);
});

async function createTask(definition: unknown): Promise<string> {
  const response = await createRoute(
    apiRequest(`/api/v1/projects/${projectId}/rubric-tasks`, ownerKey, {
      method: "POST",
      body: JSON.stringify({ definition }),
    }),
    routeContext({ projectId }),
  );
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

function upload(rubricTaskId: string, key: string, text: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new Blob([text]), "items.jsonl");
  const request = new Request(`http://localhost:3000/api/v1/rubric-tasks/${rubricTaskId}/item-sets`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  return importRoute(request, routeContext({ rubricTaskId }));
}

const lines = (...rows: object[]) => rows.map((row) => JSON.stringify(row)).join("\n");

describe("a rubric task's items through the API", () => {
  it("a dry run lists every unreadable row with its line and stores nothing; then the import stores one set of the task's kind, which the GET lists", async () => {
    const rubricTaskId = await createTask(ITEM_RUBRIC);
    const bad = await upload(
      rubricTaskId,
      ownerKey,
      lines({ video: paths[0], text: "A dog runs." }, { video: "nowhere.mp4", text: "A cat." }, { video: paths[1] }),
      { dryRun: "true" },
    );
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      error: {
        code: "invalid_file",
        details: {
          errors: [
            { line: 2, message: 'video "nowhere.mp4" is not among the project\'s videos' },
            { line: 3, message: "text: the caption is required" },
          ],
          unmatched: ["nowhere.mp4"],
        },
      },
    });

    const good = lines(
      { id: "a", video: paths[0], text: "A dog runs.", reference: "A dog." },
      { id: "b", video: paths[1], text: "A cat sleeps." },
    );
    const dry = await upload(rubricTaskId, ownerKey, good, { dryRun: "true" });
    expect(dry.status).toBe(200);
    expect(await dry.json()).toMatchObject({
      dryRun: true,
      set: { id: null, itemCount: 2 },
      items: { count: 2, videos: 2 },
    });
    expect(await prisma.itemSet.count({ where: { projectId } })).toBe(0);

    const stored = await upload(rubricTaskId, ownerKey, good, { name: "Captions v1" });
    expect(stored.status).toBe(201);
    const body = (await stored.json()) as { set: { id: string; kind: string } };
    const { key } = await prisma.rubricTask.findUniqueOrThrow({ where: { id: rubricTaskId }, select: { key: true } });
    expect(body.set.kind).toBe(`rubric_${key}_items`);
    expect(
      await prisma.item.findMany({
        where: { setId: body.set.id },
        orderBy: { externalId: "asc" },
        select: { externalId: true, kind: true },
      }),
    ).toEqual([
      { externalId: "a", kind: `rubric_${key}_item` },
      { externalId: "b", kind: `rubric_${key}_item` },
    ]);

    const listed = await listSetsRoute(
      apiRequest(`/api/v1/rubric-tasks/${rubricTaskId}/item-sets`, reviewerKey),
      routeContext({ rubricTaskId }),
    );
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { sets: { id: string; name: string; itemCount: number }[] }).sets).toEqual([
      expect.objectContaining({ id: body.set.id, name: "Captions v1", itemCount: 2 }),
    ]);
  });

  it("refuses a reviewer's upload (403) and a task that judges videos (400), storing nothing", async () => {
    const rubricTaskId = await createTask({ ...ITEM_RUBRIC, name: "Caption faithfulness 2" });
    const text = lines({ video: paths[0], text: "A dog runs." });
    expect((await upload(rubricTaskId, reviewerKey, text)).status).toBe(403);
    const videoTask = await createTask({
      ...ITEM_RUBRIC,
      name: "Per video",
      subject: { kind: "video" },
      prompt: "{{frames}} {{criteria}}",
    });
    const refused = await upload(videoTask, ownerKey, text);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("judges each video");
    const before = await prisma.itemSet.count({ where: { projectId, name: "items.jsonl" } });
    expect(before).toBe(0);
  });
});
