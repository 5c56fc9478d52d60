import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { encode, fixtureVideoName, jsonlBytes } from "@/testkit/testing/item-files";
import { referenceLine, smallReferenceSet } from "@/testkit/tasks/captions/caption-fixtures";
import { GET as getSets, POST as postReferenceSet } from "./[projectId]/caption-sets/route";
import { DELETE as deleteSet } from "./[projectId]/caption-sets/[setId]/route";
import { POST as postOutputs } from "./[projectId]/caption-sets/[setId]/outputs/route";
import { GET as getCaptions } from "./[projectId]/captions/route";
import { GET as getCaption } from "../captions/[captionId]/route";

let owner: Actor;
let ownerKey: string;

beforeAll(async () => {
  owner = await makeUser();
  ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
});

async function project(videoCount = 2) {
  return (await projectWithFramedVideos(prisma, owner, { videoCount, keyFrames: 1, name: "Captions" })).projectId;
}

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

async function sendReference(
  projectId: string,
  bytes: Uint8Array,
  fields: Record<string, string> = {},
  key = ownerKey,
) {
  const response = await postReferenceSet(
    upload(`/api/v1/projects/${projectId}/caption-sets`, key, { name: "ref.jsonl", bytes }, fields),
    routeContext({ projectId }),
  );
  return { status: response.status, body: (await response.json()) as any };
}

async function sendOutputs(
  projectId: string,
  setId: string,
  name: string,
  bytes: Uint8Array,
  fields: Record<string, string>,
  key = ownerKey,
) {
  const response = await postOutputs(
    upload(`/api/v1/projects/${projectId}/caption-sets/${setId}/outputs`, key, { name, bytes }, fields),
    routeContext({ projectId, setId }),
  );
  return { status: response.status, body: (await response.json()) as any };
}

async function get(
  handler: (request: Request, context: any) => Promise<Response>,
  path: string,
  params: Record<string, string>,
  key = ownerKey,
) {
  const response = await handler(apiRequest(path, key), routeContext(params));
  return { status: response.status as number, body: (await response.json()) as any };
}

const itemCount = (projectId: string) => prisma.item.count({ where: { projectId } });
const setCount = (projectId: string) => prisma.itemSet.count({ where: { projectId } });

describe("caption sets through the API", () => {
  it("imports a reference set and two models' outputs, lists and filters them, reads one caption, deletes a set and exactly its items", async () => {
    const projectId = await project();
    const videos = await prisma.video.findMany({
      where: { projectId },
      orderBy: { relativePath: "asc" },
      select: { id: true },
    });

    const dry = await sendReference(projectId, jsonlBytes(...smallReferenceSet()), { dryRun: "true" });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      set: { id: null, kind: "caption_reference", itemCount: 4 },
      items: { count: 4, videos: 2, byType: { brief: 1, detail: 1, poem: 1, action: 1 } },
    });
    expect(await setCount(projectId)).toBe(0);

    const reference = await sendReference(projectId, jsonlBytes(...smallReferenceSet()), { name: "AnyCapEval mini" });
    expect(reference.status).toBe(201);
    expect(reference.body).toMatchObject({
      dryRun: false,
      set: { kind: "caption_reference", name: "AnyCapEval mini", fileName: "ref.jsonl", itemCount: 4 },
      unmatched: [],
    });
    expect(reference.body.set.sha256).toMatch(/^[0-9a-f]{64}$/);
    const setId = reference.body.set.id as string;

    const alpha = await sendOutputs(
      projectId,
      setId,
      "alpha.jsonl",
      jsonlBytes(
        { id: 1, output: "A ball rolls down." },
        { id: 2, output: "A red ball rolls." },
        { id: 3, output: "Ball goes down,\nball is round." },
        { id: 4, output: "The ball rolls down the ramp." },
      ),
      { model: "alpha" },
    );
    expect(alpha.status).toBe(201);
    expect(alpha.body).toMatchObject({
      set: { kind: "caption_outputs", model: "alpha", referenceSetId: setId, itemCount: 4 },
    });
    const beta = await sendOutputs(
      projectId,
      setId,
      "beta.csv",
      encode(
        `video,type,output\n${fixtureVideoName(0)},brief,"A ball, red, rolls down a ramp and stops."\n${fixtureVideoName(1)},action,A hand pushes it.\n`,
      ),
      { model: "beta" },
    );
    expect(beta.status).toBe(201);
    expect(beta.body.items).toEqual({ count: 2, videos: 2, byType: { brief: 1, action: 1 } });
    // The same model twice against one reference set is refused, not duplicated.
    expect(
      (await sendOutputs(projectId, setId, "beta.csv", encode(`id,output\n1,again\n`), { model: "beta" })).status,
    ).toBe(409);

    const sets = await get(getSets, `/api/v1/projects/${projectId}/caption-sets`, { projectId });
    expect(sets.body.sets.map((s: any) => [s.kind, s.model])).toEqual([
      ["caption_reference", null],
      ["caption_outputs", "alpha"],
      ["caption_outputs", "beta"],
    ]);
    expect(sets.body.sets[0].outputs.map((o: any) => o.model)).toEqual(["alpha", "beta"]);

    const all = await get(getCaptions, `/api/v1/projects/${projectId}/captions`, { projectId });
    expect(all.body.total).toBe(6);
    const briefOfBeta = await get(getCaptions, `/api/v1/projects/${projectId}/captions?model=beta&type=brief`, {
      projectId,
    });
    expect(briefOfBeta.body.items).toHaveLength(1);
    expect(briefOfBeta.body.items[0]).toMatchObject({
      model: "beta",
      captionType: "brief",
      output: "A ball, red, rolls down a ramp and stops.",
      video: { id: videos[0]!.id },
      reference: { externalId: "1" },
    });
    const ofVideo = await get(
      getCaptions,
      `/api/v1/projects/${projectId}/captions?videoId=${videos[1]!.id}&pageSize=1&page=2`,
      { projectId },
    );
    expect(ofVideo.body).toMatchObject({ total: 3, page: 2, pageSize: 1 });
    expect(ofVideo.body.items).toHaveLength(1);
    const references = await get(
      getCaptions,
      `/api/v1/projects/${projectId}/captions?kind=caption_reference&type=action`,
      { projectId },
    );
    expect(references.body.items[0]).toMatchObject({
      kind: "caption_reference",
      keyPoints: ["the ball rolls down the ramp", "the ball stops on the floor", "a hand pushes the ball"],
      restriction: ["action", "The generated caption's length cannot exceed two sentences."],
    });
    // The filter is whitelisted: an unknown key is refused.
    expect((await get(getCaptions, `/api/v1/projects/${projectId}/captions?payload=x`, { projectId })).status).toBe(
      400,
    );

    const poem = (await get(getCaptions, `/api/v1/projects/${projectId}/captions?type=poem`, { projectId })).body
      .items[0];
    const one = await get(getCaption, `/api/v1/captions/${poem.id}`, { captionId: poem.id });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id: poem.id,
      model: "alpha",
      output: "Ball goes down,\nball is round.",
      reference: {
        instruction: "Describe the video as a poem caption.",
        reference: "Down the ramp the red ball flies,\nresting where the shadow lies.",
      },
    });

    const deleteRequest = (id: string) =>
      deleteSet(
        apiRequest(`/api/v1/projects/${projectId}/caption-sets/${id}`, ownerKey, { method: "DELETE" }),
        routeContext({ projectId, setId: id }),
      );
    const refused = await deleteRequest(setId);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as any).error.message).toMatch(/alpha, beta/);
    const deleted = await deleteRequest(alpha.body.set.id);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ deletedItems: 4 });
    expect(
      await prisma.item.groupBy({
        by: ["kind", "model"],
        where: { projectId },
        _count: { _all: true },
        orderBy: [{ kind: "asc" }, { model: "asc" }],
      }),
    ).toEqual([
      { kind: "caption", model: "beta", _count: { _all: 2 } },
      { kind: "caption_reference", model: null, _count: { _all: 4 } },
    ]);
  });

  describe("bad input: a clear error with its line, and nothing half-imported", () => {
    const good = () => smallReferenceSet();
    const cases: {
      name: string;
      file: () => Uint8Array;
      line: number | null;
      message: RegExp;
      unmatched?: string[];
    }[] = [
      {
        name: "a line that is not JSON",
        file: () => encode([JSON.stringify(good()[0]), "{not json", JSON.stringify(good()[1])].join("\n")),
        line: 2,
        message: /not valid JSON/,
      },
      {
        name: "a line that lacks a field",
        file: () => jsonlBytes(good()[0], { ...good()[1], conversations: undefined }),
        line: 2,
        message: /conversations: missing/,
      },
      {
        name: "a reference whose video is not in the project",
        file: () => jsonlBytes(good()[0], referenceLine(9, "elsewhere.mp4", "brief")),
        line: 2,
        message: /"elsewhere.mp4" is not among the project's videos/,
        unmatched: ["elsewhere.mp4"],
      },
      {
        name: "duplicate ids",
        file: () => jsonlBytes(good()[0], good()[1], { ...good()[2], id: 1 }),
        line: 3,
        message: /id "1" is used again \(first on line 1\)/,
      },
      {
        name: "a 10 MB reference caption",
        file: () =>
          jsonlBytes(
            good()[0],
            referenceLine(5, fixtureVideoName(0), "detail", { reference: "word ".repeat(2 * 1024 * 1024) }),
          ),
        line: 2,
        message: /at most 64\.0 KiB/,
      },
      {
        name: "a file that is not UTF-8",
        file: () =>
          new Uint8Array([...jsonlBytes(good()[0]), ...encode('{"id": 2, "video": "caf'), 0xe9, ...encode('.mp4"}\n')]),
        line: 2,
        message: /not UTF-8/,
      },
      {
        name: "a NUL byte in a text",
        file: () => jsonlBytes(good()[0], referenceLine(5, fixtureVideoName(1), "brief", { reference: "a\u0000b" })),
        line: 2,
        message: /reference: must not contain NUL bytes/,
      },
    ];
    for (const c of cases) {
      it(`reference set: ${c.name}`, async () => {
        const projectId = await project();
        const answer = await sendReference(projectId, c.file());
        expect(answer.status).toBe(422);
        expect(answer.body.error.code).toBe("invalid_file");
        expect(answer.body.error.details.errors).toContainEqual({
          line: c.line,
          message: expect.stringMatching(c.message),
        });
        expect(answer.body.error.message).toMatch(/nothing was imported/);
        if (c.unmatched) expect(answer.body.error.details.unmatched).toEqual(c.unmatched);
        expect(await setCount(projectId)).toBe(0);
        expect(await itemCount(projectId)).toBe(0);
      });
    }

    const outputCases: { name: string; file: () => Uint8Array; line: number | null; message: RegExp }[] = [
      {
        name: "an output whose id has no reference",
        file: () => jsonlBytes({ id: 1, output: "fine" }, { id: 77, output: "orphan" }),
        line: 2,
        message: /id "77" has no reference/,
      },
      {
        name: "duplicate ids",
        file: () => jsonlBytes({ id: 1, output: "one" }, { id: 2, output: "two" }, { id: 1, output: "again" }),
        line: 3,
        message: /a second output for reference id "1" \(the first is on line 1\)/,
      },
      {
        name: "an empty output",
        file: () => jsonlBytes({ id: 1, output: "fine" }, { id: 2, output: "   " }),
        line: 2,
        message: /output: is empty/,
      },
      {
        name: "a 10 MB caption",
        file: () => jsonlBytes({ id: 1, output: "fine" }, { id: 2, output: "x".repeat(10 * 1024 * 1024) }),
        line: 2,
        message: /output: is 10\.0 MiB; a caption may be at most 64\.0 KiB/,
      },
      {
        name: "a line that is not JSON",
        file: () => encode('{"id": 1, "output": "fine"}\n{"id": 2, "output": \n'),
        line: 2,
        message: /not valid JSON/,
      },
      {
        name: "a row that lacks its output",
        file: () => jsonlBytes({ id: 1, output: "fine" }, { id: 2 }),
        line: 2,
        message: /output: missing/,
      },
      {
        name: "a file that is not UTF-8",
        file: () =>
          new Uint8Array([...encode('{"id": 1, "output": "fine"}\n{"id": 2, "output": "caf'), 0xe9, ...encode('"}\n')]),
        line: 2,
        message: /not UTF-8/,
      },
      {
        name: "a NUL byte in an output",
        file: () => jsonlBytes({ id: 1, output: "fine" }, { id: 2, output: "nul\u0000here" }),
        line: 2,
        message: /output: must not contain NUL bytes/,
      },
    ];
    for (const c of outputCases) {
      it(`outputs: ${c.name}`, async () => {
        const projectId = await project();
        const setId = (await sendReference(projectId, jsonlBytes(...good()))).body.set.id as string;
        const answer = await sendOutputs(projectId, setId, "outputs.jsonl", c.file(), { model: "alpha" });
        expect(answer.status).toBe(422);
        expect(answer.body.error.details.errors).toContainEqual({
          line: c.line,
          message: expect.stringMatching(c.message),
        });
        expect(await setCount(projectId)).toBe(1);
        expect(await itemCount(projectId)).toBe(4);
      });
    }

    it("outputs without a model name, or against a set that is not a reference set, are refused", async () => {
      const projectId = await project();
      const setId = (await sendReference(projectId, jsonlBytes(...good()))).body.set.id as string;
      const noModel = await sendOutputs(projectId, setId, "outputs.jsonl", jsonlBytes({ id: 1, output: "fine" }), {});
      expect(noModel.status).toBe(400);
      expect(noModel.body.error.message).toMatch(/model/);
      const outputsId = (
        await sendOutputs(projectId, setId, "outputs.jsonl", jsonlBytes({ id: 1, output: "fine" }), { model: "alpha" })
      ).body.set.id as string;
      expect(
        (
          await sendOutputs(projectId, outputsId, "outputs.jsonl", jsonlBytes({ id: 1, output: "fine" }), {
            model: "beta",
          })
        ).status,
      ).toBe(409);
      expect(
        (
          await sendOutputs(projectId, "nosuchset", "outputs.jsonl", jsonlBytes({ id: 1, output: "fine" }), {
            model: "beta",
          })
        ).status,
      ).toBe(404);
      expect(await itemCount(projectId)).toBe(5);
    });
  });

  it("lets only owners import or delete: viewers and reviewers get 403, non-members 404 for everything", async () => {
    const projectId = await project();
    const setId = (await sendReference(projectId, jsonlBytes(...smallReferenceSet()))).body.set.id as string;
    const caption = (
      await sendOutputs(projectId, setId, "a.jsonl", jsonlBytes({ id: 1, output: "A ball." }), { model: "alpha" })
    ).body.set.id as string;
    const captionId = (await prisma.item.findFirstOrThrow({ where: { setId: caption } })).id;
    for (const role of ["viewer", "reviewer"] as const) {
      const member = await makeUser();
      await prisma.projectMember.create({ data: { projectId, userId: member.userId, role } });
      const key = (await createApiKey(prisma, member.userId, "t")).key;
      expect((await sendReference(projectId, jsonlBytes(...smallReferenceSet()), {}, key)).status).toBe(403);
      expect(
        (
          await sendOutputs(
            projectId,
            setId,
            "b.jsonl",
            jsonlBytes({ id: 1, output: "A ball." }),
            { model: "beta" },
            key,
          )
        ).status,
      ).toBe(403);
      const deleted = await deleteSet(
        apiRequest(`/api/v1/projects/${projectId}/caption-sets/${caption}`, key, { method: "DELETE" }),
        routeContext({ projectId, setId: caption }),
      );
      expect(deleted.status).toBe(403);
      // Reading is for every member.
      expect((await get(getSets, `/api/v1/projects/${projectId}/caption-sets`, { projectId }, key)).status).toBe(200);
      expect((await get(getCaption, `/api/v1/captions/${captionId}`, { captionId }, key)).status).toBe(200);
    }
    const stranger = await makeUser();
    const key = (await createApiKey(prisma, stranger.userId, "t")).key;
    expect((await sendReference(projectId, jsonlBytes(...smallReferenceSet()), {}, key)).status).toBe(404);
    expect((await get(getSets, `/api/v1/projects/${projectId}/caption-sets`, { projectId }, key)).status).toBe(404);
    expect((await get(getCaptions, `/api/v1/projects/${projectId}/captions`, { projectId }, key)).status).toBe(404);
    const hidden = await get(getCaption, `/api/v1/captions/${captionId}`, { captionId }, key);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe("No such caption.");
    expect(await prisma.itemSet.count({ where: { projectId } })).toBe(2);
  });
});
