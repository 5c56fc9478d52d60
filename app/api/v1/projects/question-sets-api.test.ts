import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { addMember } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { encode, fixtureVideoName, jsonlBytes } from "@/testkit/testing/item-files";
import { smallReferenceSet } from "@/testkit/tasks/captions/caption-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { questionSetBytes, smallQuestionSet } from "@/testkit/tasks/qa/qa-fixtures";
import { GET as getCaptionSets, POST as postReferenceSet } from "./[projectId]/caption-sets/route";
import { GET as getQuestionSets, POST as postQuestionSet } from "./[projectId]/question-sets/route";
import { DELETE as deleteQuestionSet } from "./[projectId]/question-sets/[setId]/route";
import { projectAccess } from "@/lib/authz/permissions";

let owner: Actor;
let ownerKey: string;

beforeAll(async () => {
  owner = await makeUser();
  ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
});

function upload(
  path: string,
  key: string,
  file: { name: string; bytes: Uint8Array },
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new Blob([file.bytes as BlobPart]), file.name);
  return new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
}

async function send(
  projectId: string,
  name: string,
  bytes: Uint8Array,
  fields: Record<string, string> = {},
  key = ownerKey,
) {
  const response = await postQuestionSet(
    upload(`/api/v1/projects/${projectId}/question-sets`, key, { name, bytes }, fields),
    routeContext({ projectId }),
  );
  return { status: response.status, body: (await response.json()) as any };
}

const questionCount = (projectId: string) => prisma.item.count({ where: { projectId, kind: "question" } });

describe("question sets through the API", () => {
  it("checks a set with a dry run, imports it as question items of the matched videos, lists and deletes it", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 1,
      name: "QA import",
    });
    const dry = await send(projectId, "questions.jsonl", questionSetBytes(), { dryRun: "true" });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      set: { id: null, kind: "questions", itemCount: 4 },
      items: {
        count: 4,
        videos: 2,
        byFormat: { mc: 3, open: 1 },
        byGranularity: { coarse: 3, fine: 1 },
        byCategory: { "Step Sequencing": 2 },
      },
    });
    expect(await questionCount(projectId)).toBe(0);

    const stored = await send(projectId, "questions.jsonl", questionSetBytes(), {
      name: "Ramp questions",
      citation: "written for the tests",
    });
    expect(stored.status).toBe(201);
    expect(stored.body).toMatchObject({
      dryRun: false,
      set: { kind: "questions", name: "Ramp questions", citation: "written for the tests", itemCount: 4 },
    });
    const items = await prisma.item.findMany({ where: { projectId }, orderBy: { externalId: "asc" } });
    expect(items.map((i) => [i.externalId, i.kind, i.group, i.videoId])).toEqual([
      ["q1", "question", "Step Sequencing", videoIds[0]],
      ["q2", "question", "Object Attribute Recognition", videoIds[0]],
      ["q3", "question", "Future Step Prediction", videoIds[1]],
      ["q4", "question", "Step Sequencing", videoIds[1]],
    ]);
    expect(items[0]!.payload).toMatchObject({
      format: "mc",
      answer: "A",
      options: { A: "The ball rolls down the ramp.", B: "It flies away.", C: "It melts." },
      granularity: "coarse",
      line: 1,
    });
    expect(items[3]!.payload).toMatchObject({ format: "open", options: null, answer: "The ball rolls down the ramp." });

    // Question sets and caption sets are listed apart.
    await postReferenceSet(
      upload(`/api/v1/projects/${projectId}/caption-sets`, ownerKey, {
        name: "ref.jsonl",
        bytes: jsonlBytes(...smallReferenceSet()),
      }),
      routeContext({ projectId }),
    );
    const questionSets = (await (
      await getQuestionSets(
        apiRequest(`/api/v1/projects/${projectId}/question-sets`, ownerKey),
        routeContext({ projectId }),
      )
    ).json()) as any;
    expect(questionSets.sets.map((s: any) => [s.kind, s.name])).toEqual([["questions", "Ramp questions"]]);
    const captionSets = (await (
      await getCaptionSets(
        apiRequest(`/api/v1/projects/${projectId}/caption-sets`, ownerKey),
        routeContext({ projectId }),
      )
    ).json()) as any;
    expect(captionSets.sets.map((s: any) => s.kind)).toEqual(["caption_reference"]);

    const deleted = await deleteQuestionSet(
      apiRequest(`/api/v1/projects/${projectId}/question-sets/${stored.body.set.id}`, ownerKey, { method: "DELETE" }),
      routeContext({ projectId, setId: stored.body.set.id }),
    );
    expect(await deleted.json()).toEqual({ id: stored.body.set.id, deletedItems: 4 });
    expect(await questionCount(projectId)).toBe(0);
  });

  it("refuses a bad file with every error and its line, and stores nothing of it", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 1,
      name: "QA import errors",
    });
    const [q1, q2, q3] = smallQuestionSet();
    const bad = jsonlBytes(
      q1,
      { ...q2, question: undefined },
      { ...q3, answer: "D" },
      { ...q1, id: "q1" },
      { ...q2, id: "q5", video: "A ball not in the project-0.mp4" },
      { ...q1, id: "q6", options: { A: "one" } },
    );
    for (const dryRun of ["true", "false"]) {
      const result = await send(projectId, "bad.jsonl", bad, { dryRun });
      expect(result.status).toBe(422);
      expect(result.body.error.code).toBe("invalid_file");
      expect(result.body.error.message).toMatch(/^bad\.jsonl: nothing was imported: line 2: question: missing/);
      expect(result.body.error.details.errors).toEqual([
        { line: 2, message: "question: missing (the question)" },
        { line: 3, message: "answer: D is not among the options (A, B)" },
        { line: 4, message: 'id "q1" is used again (first on line 1)' },
        { line: 5, message: 'video "A ball not in the project-0.mp4" is not among the project\'s videos' },
        { line: 6, message: "options: has 1; a multiple-choice question has 2 to 10 options" },
      ]);
      expect(result.body.error.details.unmatched).toEqual(["A ball not in the project-0.mp4"]);
    }
    expect(await questionCount(projectId)).toBe(0);
    expect(await prisma.itemSet.count({ where: { projectId } })).toBe(0);
  });

  it("imports a JSON array and a CSV, and keeps a reviewer's upload out", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 1,
      name: "QA import formats",
    });
    const array = await send(
      projectId,
      "questions.json",
      encode(JSON.stringify(smallQuestionSet().slice(0, 2), null, 2)),
    );
    expect(array.status).toBe(201);
    const csv = await send(
      projectId,
      "more.csv",
      encode(
        `id,video,question,format,A,B,answer,category\nc1,${fixtureVideoName(1)},Does it roll?,mc,Yes,No,A,Step Sequencing\nc2,${fixtureVideoName(1)},Where does it stop?,open,,,At the bottom.,\n`,
      ),
    );
    expect(csv.status).toBe(201);
    expect(csv.body.items).toMatchObject({ count: 2, byFormat: { mc: 1, open: 1 } });
    expect(await questionCount(projectId)).toBe(4);

    const reviewer = await makeUser();
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: reviewer.email,
      role: "reviewer",
    });
    const reviewerKey = (await createApiKey(prisma, reviewer.userId, "t")).key;
    expect((await send(projectId, "questions.jsonl", questionSetBytes(), {}, reviewerKey)).status).toBe(403);
    expect(await questionCount(projectId)).toBe(4);
  });
});
