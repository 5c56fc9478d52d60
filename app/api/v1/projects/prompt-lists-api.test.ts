import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { readVbenchFile } from "@/testkit/import/vbench-prompt-files";
import { makeUser } from "@/testkit/testing/fixtures";
import { uniqueMp4 } from "@/testkit/testing/media-fixtures";
import {
  MAX_PROJECT_PROMPT_ENTRIES,
  MAX_PROMPT_LIST_ENTRIES,
  type PagedCompletenessReport,
} from "@/lib/videos/prompt-list-store";
import { GET as listPromptListsRoute, POST as postPromptList } from "./[projectId]/prompt-lists/route";
import { DELETE as deletePromptListRoute } from "./[projectId]/prompt-lists/[promptListId]/route";
import { GET as getCompleteness } from "./[projectId]/completeness/route";
import { POST as postVideo } from "./[projectId]/videos/route";

// Real VBench-2.0 prompt data, read from ../shared (never copied into the project).
const info = JSON.parse(readVbenchFile("VBench2_full_text_info.json")) as Record<
  string,
  { caption: string; dimension: string[] }
>;

let key: string;
let projectId: string;
const ctx = (projectId: string) => ({ params: Promise.resolve({ projectId }) });

beforeAll(async () => {
  const owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "t")).key;
  projectId = (await createProject(prisma, owner, { name: "VBench" })).id;
});

async function sendPromptList(name: string, content: string) {
  const form = new FormData();
  form.set("file", new Blob([content]), name);
  const response = await postPromptList(
    new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }),
    ctx(projectId),
  );
  return { status: response.status, body: (await response.json()) as any };
}

async function sendVideo(relativePath: string) {
  const form = new FormData();
  form.set("path", relativePath);
  form.set("file", new Blob([fs.readFileSync(uniqueMp4("vbench"))]), relativePath.split("/").pop());
  const response = await postVideo(
    new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }),
    ctx(projectId),
  );
  return { status: response.status, body: (await response.json()) as any };
}

describe("prompt lists and the completeness report", () => {
  it("restores a long prompt and its several dimensions from VBench's info JSON, for a flat folder", async () => {
    const stored = await sendPromptList("VBench2_full_text_info.json", readVbenchFile("VBench2_full_text_info.json"));
    expect(stored.status).toBe(201);
    expect(stored.body).toMatchObject({ format: "vbench-info-json", entryCount: Object.keys(info).length });

    const [truncated, entry] = Object.entries(info).find(([, v]) => v.caption.length > 180 && v.dimension.length > 1)!;
    expect(truncated.length).toBe(180);
    const video = await sendVideo(`Wan2.1/${truncated}-1.mp4`);
    expect(video.status).toBe(201);
    expect(video.body.prompt).toBe(entry.caption);
    expect(video.body.promptTruncated).toBe(truncated);
    expect([...video.body.dimensions].sort()).toEqual([...entry.dimension].sort());
    expect(video.body.sampleIndex).toBe(1);
    expect(video.body.model).toBe("Wan2.1");
  });

  it("reports expected, present, missing, unexpected and unmatched samples", async () => {
    const owner = await makeUser();
    key = (await createApiKey(prisma, owner.userId, "t")).key;
    projectId = (await createProject(prisma, owner, { name: "Mechanics only" })).id;
    const prompts = readVbenchFile("prompt/Mechanics.txt")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    expect((await sendPromptList("Mechanics.txt", prompts.join("\n"))).body.format).toBe("dimension-txt");

    const first = prompts[0]!;
    expect((await sendVideo(`Mechanics/${first.slice(0, 180)}-0.mp4`)).status).toBe(201);
    expect((await sendVideo(`Mechanics/${first.slice(0, 180)}-1.mp4`)).status).toBe(201);
    expect((await sendVideo(`Mechanics/${first.slice(0, 180)}-5.mp4`)).status).toBe(201); // index out of range
    expect((await sendVideo(`Mechanics/Not a VBench prompt at all-0.mp4`)).status).toBe(201);

    const response = await getCompleteness(
      new Request("http://x", { headers: { authorization: `Bearer ${key}` } }),
      ctx(projectId),
    );
    expect(response.status).toBe(200);
    const report = (await response.json()) as PagedCompletenessReport;
    const mechanics = report.dimensions.find((row) => row.dimension === "Mechanics")!;
    expect(mechanics.prompts).toBe(prompts.length);
    expect(mechanics.expected).toBe(prompts.length * 3);
    expect(mechanics.present).toBe(2);
    // Counts are whole; the lists come a page at a time (100 by default).
    expect(mechanics.missing).toBe(prompts.length * 3 - 2);
    expect(report.missing).toMatchObject({ page: 1, pageSize: 100, total: prompts.length * 3 - 2 });
    expect(report.missing.items).toHaveLength(100);
    expect(report.unexpected.items).toEqual([
      expect.objectContaining({ sampleIndex: 5, reason: "index_out_of_range" }),
    ]);
    expect(report.unmatched.items.map((u) => u.relativePath)).toEqual(["Mechanics/Not a VBench prompt at all-0.mp4"]);

    // Every page together is the whole list, each sample once.
    const pages = Math.ceil(report.missing.total / 1000);
    const missing = [];
    for (let page = 1; page <= pages; page += 1) {
      const answer = await getCompleteness(
        new Request(`http://x?page=${page}&pageSize=1000`, { headers: { authorization: `Bearer ${key}` } }),
        ctx(projectId),
      );
      missing.push(...((await answer.json()) as PagedCompletenessReport).missing.items);
    }
    expect(missing).toHaveLength(prompts.length * 3 - 2);
    expect(new Set(missing.map((m) => `${m.prompt}#${m.sampleIndex}`)).size).toBe(missing.length);
    expect(missing).toContainEqual(expect.objectContaining({ prompt: first, sampleIndex: 2 }));
    expect(missing).not.toContainEqual(expect.objectContaining({ prompt: first, sampleIndex: 0 }));
    for (const query of ["pageSize=1001", "pageSize=0", "page=0", "page=x"]) {
      const bad = await getCompleteness(
        new Request(`http://x?${query}`, { headers: { authorization: `Bearer ${key}` } }),
        ctx(projectId),
      );
      expect(bad.status, query).toBe(400);
    }
  });

  it("refuses a prompt list it cannot read, saying why", async () => {
    const bad = await sendPromptList("prompts.csv", "title,notes\nx,y\n");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/prompt/i);
  });

  it("refuses a list over the maximum of one list, or of the project's lists together, with 413 naming it; stores nothing", async () => {
    const over = Array.from({ length: MAX_PROMPT_LIST_ENTRIES + 1 }, (_, i) => `Prompt ${i}`).join("\n");
    const refused = await sendPromptList("big.txt", over);
    expect(refused.status).toBe(413);
    expect(refused.body.error.message).toBe(
      "big.txt: 20,001 prompts; a prompt list may hold at most 20,000 (split it, e.g. one file per dimension).",
    );
    expect(refused.body.error.details).toMatchObject({
      limit: "MAX_PROMPT_LIST_ENTRIES",
      maximum: MAX_PROMPT_LIST_ENTRIES,
      entries: MAX_PROMPT_LIST_ENTRIES + 1,
    });
    const before = await prisma.promptList.count({ where: { projectId } });

    // The project's lists already hold all but 10 of the project's maximum.
    const owner = await prisma.promptList.findFirstOrThrow({ where: { projectId }, select: { createdById: true } });
    await prisma.promptList.create({
      data: {
        projectId,
        name: "filler",
        format: "txt",
        entryCount: MAX_PROJECT_PROMPT_ENTRIES - 10 - (await storedEntries()),
        createdById: owner.createdById,
      },
    });
    const eleven = await sendPromptList("eleven.txt", Array.from({ length: 11 }, (_, i) => `Eleven ${i}`).join("\n"));
    expect(eleven.status).toBe(413);
    expect(eleven.body.error.message).toMatch(
      /^eleven\.txt: 11 prompts, and the project's lists already hold 49,990; together they may hold at most 50,000 \(delete a list first\)\.$/,
    );
    expect(await prisma.promptList.count({ where: { projectId } })).toBe(before + 1);
    expect((await sendPromptList("ten.txt", Array.from({ length: 10 }, (_, i) => `Ten ${i}`).join("\n"))).status).toBe(
      201,
    );
  });
});

async function storedEntries() {
  return (await prisma.promptList.aggregate({ where: { projectId }, _sum: { entryCount: true } }))._sum.entryCount ?? 0;
}

describe("deleting a prompt list", () => {
  it("owners delete a list (reviewers and viewers get 403); imports and the report stop reading it", async () => {
    const [owner, reviewer, viewer] = [await makeUser(), await makeUser(), await makeUser()];
    const project = (await createProject(prisma, owner, { name: "Delete lists" })).id;
    await prisma.projectMember.createMany({
      data: [
        { projectId: project, userId: reviewer.userId, role: "reviewer" },
        { projectId: project, userId: viewer.userId, role: "viewer" },
      ],
    });
    const keyOf = async (userId: string) => (await createApiKey(prisma, userId, "t")).key;
    const [ownerKey, reviewerKey, viewerKey] = [
      await keyOf(owner.userId),
      await keyOf(reviewer.userId),
      await keyOf(viewer.userId),
    ];
    const form = new FormData();
    form.set("file", new Blob(["A red ball rolls.\nA cup falls."]), "Mechanics.txt");
    const stored = await postPromptList(
      new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${ownerKey}` }, body: form }),
      ctx(project),
    );
    const listId = ((await stored.json()) as { id: string }).id;
    const remove = (key: string, id = listId) =>
      deletePromptListRoute(
        new Request("http://x", { method: "DELETE", headers: { authorization: `Bearer ${key}` } }),
        { params: Promise.resolve({ projectId: project, promptListId: id }) },
      );

    for (const key of [reviewerKey, viewerKey]) expect((await remove(key)).status).toBe(403);
    expect(await prisma.promptList.count({ where: { id: listId } })).toBe(1);
    // Another project's owner cannot reach it through their own project either.
    expect(
      (
        await deletePromptListRoute(
          new Request("http://x", { method: "DELETE", headers: { authorization: `Bearer ${key}` } }),
          { params: Promise.resolve({ projectId, promptListId: listId }) },
        )
      ).status,
    ).toBe(404);

    const deleted = await remove(ownerKey);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: listId });
    expect((await remove(ownerKey)).status).toBe(404);
    const lists = await listPromptListsRoute(
      new Request("http://x", { headers: { authorization: `Bearer ${ownerKey}` } }),
      ctx(project),
    );
    expect(((await lists.json()) as { promptLists: unknown[] }).promptLists).toEqual([]);
    const report = (await (
      await getCompleteness(
        new Request("http://x", { headers: { authorization: `Bearer ${viewerKey}` } }),
        ctx(project),
      )
    ).json()) as PagedCompletenessReport;
    expect(report.totals.expected).toBe(0);
  });
});

describe("a prompt list stored again", () => {
  it("answers 200 with the list the project has (duplicateOf) for the same name and content, and stores it once; other content is a new list", async () => {
    const owner = await makeUser();
    const ownKey = (await createApiKey(prisma, owner.userId, "t")).key;
    const own = (await createProject(prisma, owner, { name: "Twice" })).id;
    const send = async (name: string, content: string, query = "") => {
      const form = new FormData();
      form.set("file", new Blob([content]), name);
      const response = await postPromptList(
        new Request(`http://x${query}`, { method: "POST", headers: { authorization: `Bearer ${ownKey}` }, body: form }),
        ctx(own),
      );
      return { status: response.status, body: (await response.json()) as any };
    };
    const full = readVbenchFile("VBench2_full_info.json");
    const first = await send("VBench2_full_info.json", full);
    expect(first.status).toBe(201);
    expect(first.body.duplicateOf).toBeUndefined();
    const again = await send("VBench2_full_info.json", full);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      id: first.body.id,
      duplicateOf: first.body.id,
      entryCount: first.body.entryCount,
    });
    const dry = await send("VBench2_full_info.json", full, "?dryRun=true");
    expect(dry.body).toMatchObject({ dryRun: true, id: null, duplicateOf: first.body.id });
    // The same name with other content, and the same content under another name, are lists of their own.
    const edited = await send("VBench2_full_info.json", JSON.stringify((JSON.parse(full) as unknown[]).slice(1)));
    expect(edited.status).toBe(201);
    const renamed = await send("copy.json", full);
    expect(renamed.status).toBe(201);
    const lists = await prisma.promptList.findMany({
      where: { projectId: own },
      orderBy: { createdAt: "asc" },
      select: { id: true, name: true },
    });
    expect(lists.map((l) => l.name)).toEqual(["VBench2_full_info.json", "VBench2_full_info.json", "copy.json"]);
    expect(await prisma.promptListEntry.count({ where: { listId: first.body.id } })).toBe(first.body.entryCount);
  });
});

describe("completeness per generator", () => {
  it("expects each generator's samples, narrows to one with ?model= or ?noModel=true, and refuses a bad filter with 400", async () => {
    const owner = await makeUser();
    const ownKey = (await createApiKey(prisma, owner.userId, "t")).key;
    const own = (await createProject(prisma, owner, { name: "Two generators" })).id;
    const call = (
      handler: typeof postVideo | typeof postPromptList | typeof getCompleteness,
      url: string,
      body?: FormData,
    ) =>
      handler(
        new Request(url, { method: body ? "POST" : "GET", headers: { authorization: `Bearer ${ownKey}` }, body }),
        ctx(own),
      );
    const list = new FormData();
    list.set("file", new Blob(["A ball rolls down a slope.\n"]), "Mechanics.txt");
    expect((await call(postPromptList, "http://x", list)).status).toBe(201);
    for (const path of [
      "genA/Mechanics/A ball rolls down a slope.-0.mp4",
      "genA/Mechanics/A ball rolls down a slope.-1.mp4",
      "genA/Mechanics/A ball rolls down a slope.-2.mp4",
      "genB/Mechanics/A ball rolls down a slope.-0.mp4",
    ]) {
      const form = new FormData();
      form.set("path", path);
      form.set("file", new Blob([fs.readFileSync(uniqueMp4("vbench"))]), path.split("/").pop());
      expect((await call(postVideo, "http://x", form)).status).toBe(201);
    }
    const report = async (query: string) => {
      const response = await call(getCompleteness, `http://x${query}`);
      return { status: response.status, body: (await response.json()) as any };
    };
    const all = await report("");
    expect(all.body.totals).toMatchObject({
      generators: 2,
      videos: 4,
      expected: 6,
      present: 4,
      missing: 2,
      unexpected: 0,
    });
    expect(all.body.generators.map((g: any) => [g.model, g.present, g.missing])).toEqual([
      ["genA", 3, 0],
      ["genB", 1, 2],
    ]);
    expect(all.body.missing.items.map((m: any) => [m.model, m.sampleIndex])).toEqual([
      ["genB", 1],
      ["genB", 2],
    ]);
    expect((await report("?model=genA")).body.totals).toMatchObject({
      generators: 1,
      videos: 3,
      expected: 3,
      present: 3,
      missing: 0,
    });
    expect((await report("?noModel=true")).body.totals).toMatchObject({
      generators: 1,
      videos: 0,
      expected: 3,
      present: 0,
    });
    expect((await report("?model=genA&noModel=true")).status).toBe(400);
    expect((await report(`?model=${"x".repeat(301)}`)).status).toBe(400);
  });
});
