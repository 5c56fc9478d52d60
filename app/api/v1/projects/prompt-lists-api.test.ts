import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import type { CompletenessReport } from "@/lib/import/completeness";
import { createProject } from "@/lib/projects/projects";
import { readVbenchFile } from "@/lib/import/test-support";
import { makeUser } from "@/lib/testing/fixtures";
import { uniqueMp4 } from "@/lib/testing/media-fixtures";
import { POST as postPromptList } from "./[projectId]/prompt-lists/route";
import { GET as getCompleteness } from "./[projectId]/completeness/route";
import { POST as postVideo } from "./[projectId]/videos/route";

// Real VBench-2.0 prompt data, read from ../shared (never copied into the project).
const info = JSON.parse(readVbenchFile("VBench2_full_text_info.json")) as Record<string, { caption: string; dimension: string[] }>;

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
  const response = await postPromptList(new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }), ctx(projectId));
  return { status: response.status, body: (await response.json()) as any };
}

async function sendVideo(relativePath: string) {
  const form = new FormData();
  form.set("path", relativePath);
  form.set("file", new Blob([fs.readFileSync(uniqueMp4("vbench"))]), relativePath.split("/").pop());
  const response = await postVideo(new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }), ctx(projectId));
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

    const response = await getCompleteness(new Request("http://x", { headers: { authorization: `Bearer ${key}` } }), ctx(projectId));
    expect(response.status).toBe(200);
    const report = (await response.json()) as CompletenessReport;
    const mechanics = report.dimensions.find((row) => row.dimension === "Mechanics")!;
    expect(mechanics.prompts).toBe(prompts.length);
    expect(mechanics.expected).toBe(prompts.length * 3);
    expect(mechanics.present).toBe(2);
    expect(mechanics.missing).toContainEqual(expect.objectContaining({ prompt: first, sampleIndex: 2 }));
    expect(mechanics.missing).toHaveLength(prompts.length * 3 - 2);
    expect(mechanics.unexpected).toEqual([expect.objectContaining({ sampleIndex: 5, reason: "index_out_of_range" })]);
    expect(report.unmatched.map((u) => u.relativePath)).toEqual(["Mechanics/Not a VBench prompt at all-0.mp4"]);
  });

  it("refuses a prompt list it cannot read, saying why", async () => {
    const bad = await sendPromptList("prompts.csv", "title,notes\nx,y\n");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/prompt/i);
  });
});
