/**
 * VBench-2.0's auxiliary_info through the prompt-list route, on the real PostgreSQL with real VBench-2.0 data read
 * from ../shared (never copied): VBench2_full_info.json and meta_info/<Dimension>.json are read, each matching video
 * keeps its prompt's auxiliary info under its dimension whichever came first (the list or the video), the same prompt
 * in two dimensions keeps both, and a dry run saves nothing and names what matched nothing.
 */
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { buildPromptIndex, parsePromptList } from "@/lib/import/prompt-lists";
import { createProject } from "@/lib/projects/projects";
import { readVbenchFile } from "@/testkit/import/vbench-prompt-files";
import { makeUser } from "@/testkit/testing/fixtures";
import { uniqueMp4 } from "@/testkit/testing/media-fixtures";
import { POST as postPromptList } from "./[projectId]/prompt-lists/route";
import { POST as postVideo } from "./[projectId]/videos/route";

const fullInfoText = readVbenchFile("VBench2_full_info.json");
type FullInfoEntry = { prompt_en: string; dimension: string[]; auxiliary_info?: unknown };
const fullInfo = JSON.parse(fullInfoText) as FullInfoEntry[];

let key: string;
let owner: Awaited<ReturnType<typeof makeUser>>;
const ctx = (projectId: string) => ({ params: Promise.resolve({ projectId }) });

beforeAll(async () => {
  owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "t")).key;
});

async function sendPromptList(projectId: string, name: string, content: string, dryRun = false) {
  const form = new FormData();
  form.set("file", new Blob([content]), name);
  const response = await postPromptList(
    new Request(`http://x/?dryRun=${dryRun}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }),
    ctx(projectId),
  );
  return { status: response.status, body: (await response.json()) as any };
}

async function sendVideo(projectId: string, relativePath: string) {
  const form = new FormData();
  form.set("path", relativePath);
  form.set("file", new Blob([fs.readFileSync(uniqueMp4("vbench2-aux"))]), relativePath.split("/").pop());
  const response = await postVideo(
    new Request("http://x", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }),
    ctx(projectId),
  );
  return { status: response.status, body: (await response.json()) as any };
}

const entryOf = (dimension: string, find: (e: FullInfoEntry) => boolean = () => true) =>
  fullInfo.find((e) => e.dimension.includes(dimension) && find(e))!;
const videoPath = (generator: string, dimension: string, prompt: string, index = 0) =>
  `${generator}/${dimension}/${prompt.slice(0, 180)}-${index}.mp4`;
const auxOf = async (videoId: string) =>
  (await prisma.video.findUniqueOrThrow({ where: { id: videoId }, select: { auxiliaryInfo: true } }))
    .auxiliaryInfo as Record<string, unknown>;

describe("VBench-2.0 auxiliary_info", () => {
  it("is read from VBench2_full_info.json and meta_info/<Dimension>.json, each dimension's kept apart", () => {
    const parsed = parsePromptList("VBench2_full_info.json", fullInfoText);
    expect(parsed).toMatchObject({ ok: true, format: "vbench-full-info-json" });
    if (!parsed.ok) return;
    expect(parsed.entries).toHaveLength(1230);
    const composition = entryOf("Composition");
    expect(
      parsed.entries.find((e) => e.prompt === composition.prompt_en.trim() && e.dimensions.includes("Composition"))!
        .auxiliaryInfo,
    ).toEqual({ Composition: composition.auxiliary_info });
    // "A man is doing yoga." is in three dimensions: one index entry with all three.
    const yoga = buildPromptIndex(parsed.entries).lookup("A man is doing yoga.")!;
    expect(yoga.dimensions).toEqual(expect.arrayContaining(["Human_Anatomy", "Human_Clothes", "Human_Identity"]));
    const meta = parsePromptList("Material.json", readVbenchFile("meta_info/Material.json"));
    expect(meta).toMatchObject({ ok: true, format: "vbench-full-info-json" });
    if (meta.ok)
      expect(
        meta.entries.every((e) => e.dimensions.join() === "Material" && e.auxiliaryInfo?.Material !== undefined),
      ).toBe(true);
    // A malformed entry names itself.
    expect(
      parsePromptList(
        "VBench2_full_info.json",
        JSON.stringify([
          { prompt_en: "A cat.", dimension: ["Material"] },
          { prompt_en: "", dimension: ["Material"] },
        ]),
      ),
    ).toEqual({ ok: false, error: 'entry 2: "prompt_en" must be a non-empty string' });
    expect(parsePromptList("prompts.json", "[]")).toMatchObject({
      ok: false,
      error: expect.stringContaining("VBench2_full_info.json"),
    });
  });

  it("reaches the videos whichever comes first, keeps a prompt's two dimensions apart, and a dry run saves nothing", async () => {
    const projectId = (await createProject(prisma, owner, { name: "VBench-2.0 aux" })).id;
    const material = entryOf(
      "Material",
      (e) => Array.isArray(e.auxiliary_info) && (e.auxiliary_info as unknown[]).length === 2,
    );
    const thermotics = entryOf("Thermotics");
    // Videos first: Material by two generators.
    const a = await sendVideo(projectId, videoPath("GenA", "Material", material.prompt_en));
    const b = await sendVideo(projectId, videoPath("GenB", "Material", material.prompt_en));
    const stray = await sendVideo(projectId, "GenA/Material/Not a VBench prompt at all-0.mp4");
    expect([a.status, b.status, stray.status]).toEqual([201, 201, 201]);
    expect(await auxOf(a.body.id)).toEqual({});

    const dry = await sendPromptList(projectId, "VBench2_full_info.json", fullInfoText, true);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      id: null,
      entryCount: 1230,
      matchedVideos: 2,
      videosUpdated: 2,
      unmatchedVideos: { count: 1, first: ["GenA/Material/Not a VBench prompt at all-0.mp4"] },
    });
    expect(dry.body.unmatchedPrompts.byDimension.Material.count).toBe(
      fullInfo.filter((e) => e.dimension.includes("Material")).length - 1,
    );
    expect(dry.body.unmatchedPrompts.byDimension.Camera_Motion.count).toBe(
      fullInfo.filter((e) => e.dimension.includes("Camera_Motion")).length,
    );
    expect(await prisma.promptList.count({ where: { projectId } })).toBe(0);
    expect(await auxOf(a.body.id)).toEqual({});

    const saved = await sendPromptList(projectId, "VBench2_full_info.json", fullInfoText);
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ dryRun: false, id: expect.any(String), matchedVideos: 2, videosUpdated: 2 });
    expect(await auxOf(a.body.id)).toEqual({ Material: material.auxiliary_info });
    expect(await auxOf(b.body.id)).toEqual({ Material: material.auxiliary_info });
    expect(await auxOf(stray.body.id)).toEqual({});
    // Stored again, the same list changes nothing (jsonb reorders Composition-like objects' keys; compared key-order-free).
    expect((await sendPromptList(projectId, "VBench2_full_info.json", fullInfoText, true)).body).toMatchObject({
      matchedVideos: 2,
      videosUpdated: 0,
    });
    // One dimension's list leaves other dimensions' videos out of its unmatched ones.
    const thermoticsOnly = await sendPromptList(
      projectId,
      "Thermotics.json",
      readVbenchFile("meta_info/Thermotics.json"),
      true,
    );
    expect(thermoticsOnly.body).toMatchObject({ matchedVideos: 0, unmatchedVideos: { count: 0 } });

    // The list first: a video imported now gets it at once.
    const later = await sendVideo(projectId, videoPath("GenA", "Thermotics", thermotics.prompt_en, 2));
    expect(later.status).toBe(201);
    expect(await auxOf(later.body.id)).toEqual({ Thermotics: thermotics.auxiliary_info });

    // A prompt in two dimensions (VBench has such): a flat-named video in both keeps both dimensions' info.
    const twice = fullInfo.find(
      (e) =>
        e.auxiliary_info !== undefined &&
        fullInfo.some(
          (o) =>
            o !== e &&
            o.prompt_en === e.prompt_en &&
            o.auxiliary_info !== undefined &&
            o.dimension[0] !== e.dimension[0],
        ),
    );
    if (twice) {
      const other = fullInfo.find(
        (o) => o !== twice && o.prompt_en === twice.prompt_en && o.auxiliary_info !== undefined,
      )!;
      const flat = await sendVideo(projectId, `GenA/${twice.prompt_en.slice(0, 180)}-0.mp4`);
      expect(flat.status).toBe(201);
      expect(await auxOf(flat.body.id)).toEqual({
        [twice.dimension[0]!]: twice.auxiliary_info,
        [other.dimension[0]!]: other.auxiliary_info,
      });
    } else {
      // No such prompt in the suite: the merge is still checked on a list of two entries.
      const merged = buildPromptIndex([
        { prompt: "P", dimensions: ["Material"], auxiliaryInfo: { Material: ["q"] } },
        { prompt: "P", dimensions: ["Mechanics"], auxiliaryInfo: { Mechanics: ["r"] } },
      ]).lookup("P")!;
      expect(merged.auxiliaryInfo).toEqual({ Material: ["q"], Mechanics: ["r"] });
    }
  });
});
