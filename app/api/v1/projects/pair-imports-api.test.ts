/**
 * Issue 66 §8 through the API: a pairwise import posted as multipart (options as JSON, the file streamed to disk and
 * bounded), answered 200 for a dry run and 201 for a real one; bad options a 400, a body over the limit a 413, both
 * writing nothing; and the votes downloaded again as CSV and arena battles.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { readPairImportUpload } from "@/lib/pairwise/import/pair-import-upload";
import { createProject } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { POST as importRoute } from "./[projectId]/pair-imports/route";
import { GET as votesRoute } from "../pair-sets/[pairSetId]/votes/route";
import { GET as hfRoute } from "../pair-sets/[pairSetId]/export/hf-dataset/route";
import { tarEntries } from "@/testkit/testing/tar-entries";

let ownerKey: string;
let strangerKey: string;
let projectId: string;

const CSV = [
  "video_a,video_b,verdict,aspect,rater,prompt,generator_a,generator_b",
  "a.mp4,b.mp4,A,overall,ann1,a cat,Sora,Kling",
  "a.mp4,b.mp4,tie_bad,overall,ann2,a cat,Sora,Kling",
  "c.mp4,d.mp4,B,overall,ann1,a dog,Kling,__proto__",
  "c.mp4,d.mp4,B,__proto__,ann1,a dog,Kling,__proto__",
].join("\n");

beforeAll(async () => {
  const owner = await makeUser();
  ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
  strangerKey = (await createApiKey(prisma, (await makeUser()).userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "Pair imports API" })).id;
});

function form(options: Record<string, unknown> | string, file = CSV, dryRun?: string) {
  const body = new FormData();
  body.set("options", typeof options === "string" ? options : JSON.stringify(options));
  if (dryRun !== undefined) body.set("dryRun", dryRun);
  body.set("file", new Blob([file]), "votes.csv");
  return body;
}

async function post(body: FormData, headers: Record<string, string> = {}, key = ownerKey) {
  const response = await importRoute(
    new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${key}`, ...headers }, body }),
    { params: Promise.resolve({ projectId }) },
  );
  return { status: response.status, body: (await response.json()) as any };
}

async function votes(pairSetId: string, query: string, key = ownerKey) {
  const response = await votesRoute(
    new Request(`http://x/api/v1/pair-sets/${pairSetId}/votes?${query}`, {
      headers: { authorization: `Bearer ${key}` },
    }),
    { params: Promise.resolve({ pairSetId }) },
  );
  return { status: response.status, text: await response.text(), type: response.headers.get("content-type") };
}

describe("POST /api/v1/projects/{projectId}/pair-imports", () => {
  it("answers a dry run (200, nothing written) and then imports (201)", async () => {
    const dry = await post(form({ format: "csv", name: "api votes" }));
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, rows: 4, votes: 3, refusedByReason: { unknown_aspect: 1 } });
    expect(await prisma.pairSet.count({ where: { projectId } })).toBe(0);
    const real = await post(form({ format: "csv", name: "api votes" }, CSV, "false"));
    expect(real.status).toBe(201);
    expect(real.body).toMatchObject({ dryRun: false, imported: 3, pairs: 2 });

    const csv = await votes(real.body.pairSetId, "format=csv");
    expect(csv.status).toBe(200);
    expect(csv.type).toContain("text/csv");
    expect(csv.text.split("\r\n")[0]).toBe(
      "pair_key,prompt,generator_a,generator_b,video_a,video_b,sha256_a,sha256_b,aspect,rater,rater_kind,verdict,strength,updated_at",
    );
    expect(csv.text.trim().split("\r\n")).toHaveLength(4);
    const arena = await votes(real.body.pairSetId, "format=arena");
    const battles = arena.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(battles.map((b) => [b.model_a, b.model_b, b.winner, b.judge]).sort()).toEqual([
      ["Kling", "__proto__", "model_b", "ann1"],
      ["Sora", "Kling", "model_a", "ann1"],
      ["Sora", "Kling", "tie (bothbad)", "ann2"],
    ]);
    expect((await votes(real.body.pairSetId, "format=xml")).status).toBe(400);

    // A reviewer's vote beside the label set's: the Hugging Face dataset counts people, never names them.
    const pair = await prisma.pair.findFirstOrThrow({ where: { pairSetId: real.body.pairSetId, prompt: "a cat" } });
    await prisma.pairVerdict.create({
      data: {
        projectId,
        pairSetId: real.body.pairSetId,
        pairId: pair.id,
        aspect: "overall",
        raterKind: "reviewer",
        raterId: "some-user-id",
        verdict: "B",
      },
    });
    const hf = await hfRoute(
      new Request(`http://x/api/v1/pair-sets/${real.body.pairSetId}/export/hf-dataset`, {
        headers: { authorization: `Bearer ${ownerKey}` },
      }),
      { params: Promise.resolve({ pairSetId: real.body.pairSetId }) },
    );
    expect(hf.status).toBe(200);
    const entries = await tarEntries(hf.body!);
    expect([...entries.keys()]).toEqual(["data/votes-00000.jsonl", "README.md"]);
    const rows = entries
      .get("data/votes-00000.jsonl")!
      .toString()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows).toHaveLength(4);
    expect(rows.map((row) => row.rater).sort()).toEqual(["ann1", "ann1", "ann2", "reviewer_1"]);
    expect(JSON.stringify(rows)).not.toContain("some-user-id");
    expect(entries.get("README.md")!.toString()).toContain("num_examples: 4");
    expect((await votes(real.body.pairSetId, "format=csv", strangerKey)).status).toBe(404);
  });

  it("refuses bad options with a 400 naming them, writing nothing", async () => {
    const notJson = await post(form("{format: csv"));
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.message).toContain("not JSON");
    expect((await post(form({ format: "xlsx", name: "x" }))).status).toBe(400);
    expect((await post(form({ format: "csv", name: "x", aspects: ["__proto__"] }))).status).toBe(400);
    expect((await post(form({ format: "csv", name: "x", extra: 1 }))).status).toBe(400);
    expect((await post(form({ format: "csv", name: "x" }, CSV, "maybe"))).status).toBe(400);
    expect(await prisma.pairSet.count({ where: { projectId, name: "x" } })).toBe(0);
  });

  it("refuses a body larger than the limit with a 413 before reading it, and a file that grows past it while read", async () => {
    const declared = await post(form({ format: "csv", name: "huge" }), { "content-length": String(2 ** 40) });
    expect(declared.status).toBe(413);
    const request = new Request("http://x", {
      method: "POST",
      body: form({ format: "csv", name: "huge" }, CSV.repeat(100)),
    });
    await expect(readPairImportUpload(request, 1000)).rejects.toMatchObject({ status: 413 });
    expect(await prisma.pairSet.count({ where: { projectId, name: "huge" } })).toBe(0);
  });

  it("is for owners: a stranger gets a 404", async () => {
    expect((await post(form({ format: "csv", name: "s" }), {}, strangerKey)).status).toBe(404);
  });
});
