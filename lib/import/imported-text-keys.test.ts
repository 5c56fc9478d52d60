/**
 * Every importer that keys something by the file's own text, fed the names a plain object answers for itself:
 * `__proto__` (its prototype), `constructor` and `toString` (inherited functions). Each must count them as any
 * other name, keep them as own keys, and leave Object.prototype as it was.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { parseGenericItems } from "../items/generic-items";
import { importGenericLabels, importVbenchResults } from "../label-sets/label-sets";
import { labelSetImportFieldsSchema } from "../label-sets/label-sets.validation";
import { SPAN_IMPORT_FORMATS } from "../spans/span-files/span-file-formats";
import { createProject } from "../projects/projects";
import { renderRubricPrompt } from "../rubrics/rubric-prompt";
import { parseQuestionSet } from "../tasks/qa/question-sets";
import { makeUser } from "../../testkit/testing/fixtures";
import { appDeps } from "../videos/app-deps";
import { applyMetadataSchema, applyMetadataToVideos } from "../videos/apply-metadata";
import { projectCompleteness, savePromptList } from "../videos/prompt-list-store";
import { parseMetadataFile } from "./metadata-file";
import { createReadyVideo } from "../../testkit/testing/ready-video";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

const KEYS = ["__proto__", "constructor", "toString"] as const;
const encode = (text: string) => new TextEncoder().encode(text);
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

afterEach(() => {
  // A polluted prototype shows as a new name on it, or as a value every object suddenly has.
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
  expect(({} as Record<string, unknown>).count).toBeUndefined();
});

async function projectWithVideos(paths: readonly string[]) {
  const projectId = (await createProject(prisma, owner, { name: `Keys ${randomUUID().slice(0, 8)}` })).id;
  for (const relativePath of paths)
    await createReadyVideo(prisma, { projectId, relativePath, createdById: owner.userId });
  return projectId;
}

const own = (value: unknown, key: string) =>
  value !== null && typeof value === "object" && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;

describe.each(KEYS)("imported text %j", (key) => {
  it("as a prompt list's dimension: counted per dimension, its auxiliary info kept under it, completeness reported", async () => {
    const projectId = await projectWithVideos(["A red ball-0.mp4"]);
    const list = JSON.stringify([
      { prompt_en: "A red ball", dimension: [key], auxiliary_info: { question: "Is it red?" } },
      { prompt_en: "A blue cube", dimension: [key] },
      { prompt_en: "A green cone", dimension: [key] },
      { prompt_en: "A cat", dimension: ["Mechanics"] },
    ]);
    const dry = await savePromptList(
      appDeps(),
      await projectAccess(prisma, owner, projectId, "videos.import"),
      "meta.json",
      list,
      { dryRun: true },
    );
    expect(dry).toMatchObject({ entryCount: 4, matchedVideos: 1, unmatchedPrompts: { count: 3 } });
    expect(own(dry.unmatchedPrompts.byDimension, key)).toEqual({ count: 2, first: ["A blue cube", "A green cone"] });
    expect(own(dry.unmatchedPrompts.byDimension, "Mechanics")).toEqual({ count: 1, first: ["A cat"] });

    const saved = await savePromptList(
      appDeps(),
      await projectAccess(prisma, owner, projectId, "videos.import"),
      "meta.json",
      list,
    );
    expect(saved).toMatchObject({ videosUpdated: 1 });
    const video = await prisma.video.findFirstOrThrow({
      where: { projectId },
      select: { dimensions: true, auxiliaryInfo: true },
    });
    expect(video.dimensions).toEqual([key]);
    expect(own(video.auxiliaryInfo, key)).toEqual({ question: "Is it red?" });

    await prisma.video.updateMany({ where: { projectId }, data: { prompt: "A red ball", sampleIndex: 0 } });
    const report = await projectCompleteness(appDeps(), await projectAccess(prisma, owner, projectId, "project.view"));
    expect(report.dimensions.find((d) => d.dimension === key)).toMatchObject({ prompts: 3, present: 1 });
  });

  it("as a metadata column: an own extra key, and applying it to a video without it overwrites nothing", async () => {
    const parsed = parseMetadataFile("meta.csv", `file,${key},note\nx-0.mp4,v,n\n`);
    if (key === "__proto__") {
      // JSON bodies cannot carry it (the API's parser drops it): refused with its line, not lost on the way.
      expect(parsed).toEqual({ ok: false, error: 'line 1: "__proto__" cannot name a column; rename it' });
      expect(parseMetadataFile("meta.jsonl", `{"file":"x-0.mp4","${key}":"v"}`)).toEqual({
        ok: false,
        error: 'line 1: "__proto__" cannot name a column; rename it',
      });
      return;
    }
    expect(parsed.ok && parsed.byPath.get("x-0.mp4")?.extra).toEqual({ [key]: "v", note: "n" });
    expect(parsed.ok && Object.keys(parsed.byPath.get("x-0.mp4")!.extra)).toEqual([key, "note"]);

    const projectId = await projectWithVideos(["m/x-0.mp4"]);
    const plan = await applyMetadataToVideos(prisma, await projectAccess(prisma, owner, projectId, "videos.edit"), {
      rows: [{ path: "x-0.mp4", extra: { [key]: "v" } }],
      promptLists: false,
      dryRun: true,
      confirmOverwrites: false,
    });
    expect(plan).toMatchObject({ matchedVideos: 1, overwrites: 0 });
    expect(plan.changes[0]!.fields).toEqual([{ field: `extra.${key}`, before: null, after: "v", overwrite: false }]);
  });

  it("as an extra field of the metadata the API takes: kept, or refused by name where JSON parsing would drop it", () => {
    const rows = applyMetadataSchema.safeParse(JSON.parse(`{"rows": [{"path": "x-0.mp4", "extra": {"${key}": "v"}}]}`));
    if (key === "__proto__")
      expect(rows.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
        ["rows.0.extra", '"__proto__" cannot name an extra field; rename it.'],
      ]);
    else expect(rows.success && own(rows.data.rows[0]!.extra, key)).toBe("v");
  });

  it("as a label set's annotator and dimension: counted as any name", async () => {
    const projectId = await projectWithVideos(["Mechanics/one-0.mp4", "Mechanics/two-0.mp4"]);
    const csv = `video,annotator,target,value\nMechanics/one-0.mp4,${key},verdict,1\nMechanics/two-0.mp4,${key},verdict,0\nMechanics/two-0.mp4,alice,verdict,1\n`;
    const generic = await importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: encode(csv),
      fileName: "labels.csv",
      name: "Long",
      dryRun: true,
    });
    expect(generic.plan.issues).toEqual([]);
    expect(own(generic.plan.annotators, key)).toBe(2);
    expect(own(generic.plan.annotators, "alice")).toBe(1);
    expect(Object.keys(generic.plan.annotators).sort()).toEqual([key, "alice"].sort());

    const results = `{"${key}": [0.5, [{"video_path": "Mechanics/one-0.mp4", "video_results": 1}, {"video_path": "Mechanics/two-0.mp4", "video_results": 0}]]}`;
    const vbench = await importVbenchResults(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: encode(results),
      fileName: "eval_results.json",
      name: "VBench",
      dryRun: true,
    });
    expect(own(vbench.plan.judgments, key)).toBe(2);
    expect(own(vbench.plan.aggregates, key)).toBe(0.5);
  });

  it("as a wide label file's mapped column in the import form: kept, or refused by name where JSON parsing would drop it", () => {
    const fields = labelSetImportFieldsSchema(builtInCatalogue(), SPAN_IMPORT_FORMATS).safeParse({
      format: "generic",
      name: "Wide",
      columns: JSON.stringify({ video: "clip", targets: { [key]: "verdict" } }),
    });
    if (key === "__proto__")
      expect(fields.error?.issues.map((issue) => issue.message)).toEqual([
        'columns: a column named "__proto__" cannot be mapped; rename it.',
      ]);
    else expect(fields.success && own(fields.data.columns?.targets, key)).toBe("verdict");
  });

  it("as a wide label file's column, given in some rows only: one label per row that has it", async () => {
    const projectId = await projectWithVideos(["Mechanics/one-0.mp4", "Mechanics/two-0.mp4"]);
    const jsonl = `{"clip": "Mechanics/one-0.mp4", "${key}": 1}\n{"clip": "Mechanics/two-0.mp4"}\n`;
    const wide = await importGenericLabels(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: encode(jsonl),
      fileName: "wide.jsonl",
      name: "Wide",
      dryRun: true,
      columns: { video: "clip", targets: { [key]: "verdict" } },
    });
    expect(wide.plan).toMatchObject({
      rows: 2,
      matchedVideos: 1,
      judgments: { "hallucination:verdict": 1 },
      issues: [],
    });
  });

  it("as an item field (a rubric's declared field): read only from the row, filled into the prompt", () => {
    const fields = [{ id: key, label: "Field", required: false }];
    const file = {
      fileName: "items.jsonl",
      bytes: encode(`{"id": "a", "video": "x-0.mp4", "${key}": "given"}\n{"id": "b", "video": "x-0.mp4"}\n`),
    };
    const parsed = parseGenericItems(file, fields, ["x-0.mp4"]);
    expect(parsed.ok).toBe(true);
    const items = parsed.ok ? parsed.items : [];
    expect(items.map((item) => own(item.payload.fields, key))).toEqual(["given", ""]);

    const definition = { prompt: `Field: [{{item.${key}}}]` } as Parameters<typeof renderRubricPrompt>[0];
    const render = (item: Record<string, string>) =>
      renderRubricPrompt({ ...definition, criteria: [] } as never, { prompt: "", frames: "", item }).split("\n")[0];
    expect(render(Object.fromEntries([[key, "shown"]]))).toBe("Field: [shown]");
    expect(render({})).toBe("Field: []");
  });

  it("as a question set's extra column: kept as an own key of the question's extra", () => {
    const csv = `id,video,question,format,answer,${key}\nq1,x-0.mp4,Does it move?,open,Yes.,kept\n`;
    const parsed = parseQuestionSet(encode(csv), ["x-0.mp4"], { format: "csv" });
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && own(parsed.questions[0]!.extra, key)).toBe("kept");
  });
});
