/**
 * Issue 23.11: seed 004's Table 10 gives a first-person system message for egocentric data ("Dataset
 * Perspective"); the generalized template offers it, chosen from the annotation file's `perspective` or the
 * run's `perspective` setting. And the generalized template's example is printed in Tables 17–19 (not 16).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { parseStepAnnotations } from "@/lib/tasks/construction/step-annotations";
import { prisma } from "@/lib/db/prisma";
import { importStepAnnotations } from "@/lib/tasks/construction/step-annotation-sets";
import { createEndpoint } from "@/lib/judge/endpoints/endpoints";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";

import { createRun } from "@/lib/judge/runs/runs";
import { loadTemplate } from "@/lib/prompt-versions/prompt-templates";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { sharedDataPath } from "@/testkit/testing/shared-data";
import { generationTemplateOf, qaGenerateSettingsSchema } from "./qa-generate-pipeline";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

const FIRST_PERSON =
  "You excel in interpreting video footage recorded from a first-person perspective by a pair of smart glasses";
const bytes = (text: string) => new TextEncoder().encode(text);

describe("the generalized template's perspective", () => {
  it("picks the first-person variant for generic clips the annotations or the run mark first-person, and only for them", () => {
    const generic = { dataset: "generic" as const, perspective: null };
    const ego = { dataset: "generic" as const, perspective: "first-person" as const };
    expect(generationTemplateOf(generic, "coarse", "auto")).toBe("construction/generate-generic-coarse");
    expect(generationTemplateOf(ego, "coarse", "auto")).toBe("construction/generate-generic-coarse-first-person");
    expect(generationTemplateOf(ego, "fine", "third_person")).toBe("construction/generate-generic-fine");
    expect(generationTemplateOf(generic, "fine", "first_person")).toBe(
      "construction/generate-generic-fine-first-person",
    );
    // Datasets with templates of their own keep them.
    expect(generationTemplateOf({ dataset: "hirest", perspective: "first-person" }, "coarse", "first_person")).toBe(
      "construction/generate-hirest-coarse",
    );
    expect(qaGenerateSettingsSchema.parse({})).toEqual({ perspective: "auto" });
  });

  it("reads `perspective` from JSONL and CSV annotations, and names a bad value with its line", () => {
    const jsonl = parseStepAnnotations(
      bytes(
        JSON.stringify({
          video: "a.mp4",
          perspective: "First-Person",
          steps: [{ start: 0, end: 2, text: "open the fridge" }],
        }),
      ),
      ["a.mp4"],
    );
    expect(jsonl.ok && jsonl.annotations[0]!.perspective).toBe("first-person");
    const csv = parseStepAnnotations(
      bytes("video,start,end,text,perspective\na.mp4,0,2,open the fridge,third-person\n"),
      ["a.mp4"],
      { format: "csv" },
    );
    expect(csv.ok && csv.annotations[0]!.perspective).toBe("third-person");
    const none = parseStepAnnotations(
      bytes(JSON.stringify({ video: "a.mp4", steps: [{ start: 0, end: 2, text: "x" }] })),
      ["a.mp4"],
    );
    expect(none.ok && none.annotations[0]!.perspective).toBeNull();
    const bad = parseStepAnnotations(
      bytes(
        `\n${JSON.stringify({ video: "a.mp4", perspective: "sideways", steps: [{ start: 0, end: 2, text: "x" }] })}`,
      ),
      ["a.mp4"],
    );
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors[0]).toMatchObject({
      line: 2,
      message: expect.stringContaining("first-person, third-person"),
    });
  });

  it("ships the variants with Table 10's First-Person system message, in the system role", () => {
    for (const g of ["coarse", "fine"]) {
      const variant = loadTemplate(`construction/generate-generic-${g}-first-person`);
      const plain = loadTemplate(`construction/generate-generic-${g}`);
      expect(variant.meta.system).toBe("first-paragraph");
      expect(variant.body.startsWith(FIRST_PERSON)).toBe(true);
      // Everything after the system message is the generalized template's prompt, unchanged.
      expect(variant.body.slice(variant.body.indexOf("\n\n"))).toBe(plain.body.slice(plain.body.indexOf("\n\n")));
    }
  });

  it("cites the tables that print the generalized template's example: 17–19 (each caption follows its table in the seed)", () => {
    const seed = fs.readFileSync(sharedDataPath("seeds/004_1f7c3d1b88a17c7b.txt"), "utf8");
    // The text before "Table N:" (after the previous caption) is table N.
    const tables = new Map<number, string>();
    let from = 0;
    for (const caption of seed.matchAll(/^Table (\d+):/gm)) {
      tables.set(Number(caption[1]), seed.slice(from, caption.index));
      from = caption.index! + caption[0].length;
    }
    const withExample = [...tables]
      .filter(([, text]) => text.includes("Video Goal: Making pan seared meal"))
      .map(([n]) => n);
    expect(withExample).toEqual([17, 18, 19]);
    for (const file of [
      "lib/tasks/construction/render-clip-info.ts",
      "prompts/construction/generate-generic-coarse.md",
      "prompts/construction/generate-generic-fine.md",
    ]) {
      const text = fs.readFileSync(path.resolve(file), "utf8");
      expect(text).not.toMatch(/Table 16/);
      expect(text).toContain("Tables 17–19");
    }
  });

  let stub: StubServer;
  let owner: Actor;
  beforeAll(async () => {
    stub = await startStubLlm();
    owner = await makeUser();
  });
  afterAll(() => stub.close());

  it("a generation run asks a first-person generic clip with the first-person system message", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1 });
    const videos = await prisma.video.findMany({
      where: { projectId },
      orderBy: { relativePath: "asc" },
      select: { relativePath: true },
    });
    const annotation = (video: { relativePath: string }, perspective: string | null) => ({
      video: path.basename(video.relativePath),
      theme: "Cook",
      perspective,
      steps: [
        { start: 0, end: 3, text: "open the fridge" },
        { start: 3, end: 6, text: "take the eggs" },
      ],
    });
    const file = [annotation(videos[0]!, "first-person"), annotation(videos[1]!, null)]
      .map((a) => JSON.stringify(a))
      .join("\n");
    const set = await importStepAnnotations(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      { fileName: "steps.jsonl", bytes: bytes(file) },
      { name: "Kitchen" },
    );
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "gen",
      baseUrl: stub.baseURL,
      model: `stub-gen-${projectId.slice(-8)}`,
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 8,
      requestsPerMinute: null,
      timeoutSeconds: 60,
      structuredOutput: true,
      pricePer1kInput: null,
      pricePer1kOutput: null,
    });
    const queue = inlineJudgeQueue(testJudgeDeps());
    const run = await createRun(
      { prisma, queue, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({
        pipeline: "qa_generate",
        endpointId: endpoint.id,
        clipSetId: set.set.id,
      }),
    );
    const steps = await prisma.stepResult.findMany({ where: { runId: run.id }, select: { templateId: true } });
    expect(steps.map((s) => s.templateId).sort()).toEqual([
      "construction/generate-generic-coarse",
      "construction/generate-generic-coarse-first-person",
      "construction/generate-generic-fine",
      "construction/generate-generic-fine-first-person",
    ]);
    const firstPerson = stub.requests.filter(
      (r) => r.model === `stub-gen-${projectId.slice(-8)}` && r.text.startsWith(FIRST_PERSON),
    );
    expect(firstPerson).toHaveLength(2);
    for (const request of firstPerson) expect(request.roles).toEqual(["system", "user"]);
  });
});
