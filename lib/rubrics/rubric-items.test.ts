import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { importItemSetOfKind, type ItemFile } from "@/lib/items/item-set-import";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { rubricDefinitionSchema, rubricProblems, type RubricDefinitionInput } from "./rubric-definition";
import { rubricItemSetKind } from "./rubric-item-set-kind";
import { projectAccess } from "../authz/permissions";

/*
 * Issue 25, rubric tasks whose subject is an item: the definition declares the items' fields
 * (`{ id, label, required }`), `{{item.<field>}}` must name one of them, and the generic item importer reads a
 * JSONL, JSON or CSV file of such items into an item set of the rubric's own kind.
 */
const captionFaithfulness: RubricDefinitionInput = {
  name: "Caption faithfulness",
  subject: {
    kind: "item",
    fields: [
      { id: "text", label: "caption", required: true },
      { id: "reference", label: "reference caption", required: false },
    ],
  },
  frames: { mode: "uniform", count: 4 },
  criteria: [
    { id: "faithful", name: "Faithful", definition: "Everything the caption says is in the video.", type: "boolean" },
  ],
  prompt: "{{frames}}\nCaption: {{item.text}}\nReference: {{item.reference}}\n{{criteria}}",
};

let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

const file = (fileName: string, text: string): ItemFile => ({ fileName, bytes: new TextEncoder().encode(text) });

describe("a rubric definition whose subject is an item", () => {
  it("declares its fields as { id, label, required } and names an unknown {{item.<field>}} or a repeated field in the field it is in", () => {
    const definition = rubricDefinitionSchema.parse(captionFaithfulness);
    expect(definition.subject).toEqual({
      kind: "item",
      fields: [
        { id: "text", label: "caption", required: true },
        { id: "reference", label: "reference caption", required: false },
      ],
    });
    // A bare id is shorthand for a required field labelled with its id.
    expect(
      rubricDefinitionSchema.parse({ ...captionFaithfulness, subject: { kind: "item", fields: ["text"] } }).subject,
    ).toEqual({
      kind: "item",
      fields: [{ id: "text", label: "text", required: true }],
    });

    const unknown = rubricProblems({ ...captionFaithfulness, prompt: "{{frames}} {{item.title}}" }).problems;
    expect(unknown).toContainEqual({
      path: "prompt",
      message: '{{item.title}}: the subject declares no item field "title" (fields: text, reference)',
    });
    const repeated = rubricProblems({
      ...captionFaithfulness,
      subject: {
        kind: "item",
        fields: [
          { id: "text", label: "a" },
          { id: "text", label: "b" },
          { id: "video", label: "c" },
        ],
      },
    }).problems;
    expect(repeated).toEqual(
      expect.arrayContaining([
        { path: "subject.fields.1.id", message: 'the field id "text" is used twice' },
        {
          path: "subject.fields.2.id",
          message: '"video" names the item\'s video in the file; choose another field id',
        },
      ]),
    );
  });
});

describe("the generic item importer, through a rubric task's item set kind", () => {
  it("a dry run lists every row it cannot read with its line (unknown video, missing required field) and stores nothing", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1 });
    const [first] = await prisma.video.findMany({
      where: { id: { in: videoIds } },
      orderBy: { relativePath: "asc" },
      select: { relativePath: true },
    });
    const kind = rubricItemSetKind(7, rubricDefinitionSchema.parse(captionFaithfulness))!;
    const bad = file(
      "items.jsonl",
      [
        JSON.stringify({ video: first!.relativePath, text: "A dog runs." }),
        JSON.stringify({ video: "missing.mp4", text: "A cat sleeps." }),
        JSON.stringify({ video: first!.relativePath, reference: "A dog." }),
        "{not json",
      ].join("\n"),
    );
    await expect(
      importItemSetOfKind(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), kind, bad, {
        dryRun: true,
      }),
    ).rejects.toMatchObject({
      status: 422,
      details: {
        errors: [
          { line: 2, message: 'video "missing.mp4" is not among the project\'s videos' },
          { line: 3, message: "text: the caption is required" },
          { line: 4, message: expect.stringContaining("not valid JSON") },
        ],
        unmatched: ["missing.mp4"],
      },
    });
    await expect(
      importItemSetOfKind(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), kind, bad, {}),
    ).rejects.toMatchObject({ status: 422 });
    expect(await prisma.itemSet.count({ where: { projectId } })).toBe(0);
  });

  it("imports JSONL and CSV rows naming their video by path or file name into an item set of the rubric's kind; the dry run stores nothing", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 1 });
    const videos = await prisma.video.findMany({
      where: { id: { in: videoIds } },
      orderBy: { relativePath: "asc" },
      select: { id: true, relativePath: true },
    });
    const [first, second] = videos;
    const kind = rubricItemSetKind(7, rubricDefinitionSchema.parse(captionFaithfulness))!;
    expect(kind.id).toBe("rubric_7_items");
    const jsonl = file(
      "captions.jsonl",
      [
        JSON.stringify({
          id: "c1",
          video: `some/other/folder/${first!.relativePath.split("/").pop()}`,
          text: "A dog runs.",
          reference: "A dog.",
        }),
        JSON.stringify({ video: second!.relativePath, text: 42 }),
      ].join("\n"),
    );

    const dry = await importItemSetOfKind(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      kind,
      jsonl,
      { dryRun: true },
    );
    expect(dry).toMatchObject({
      dryRun: true,
      set: { id: null, kind: "rubric_7_items", itemCount: 2 },
      items: { count: 2, videos: 2 },
    });
    expect(await prisma.itemSet.count({ where: { projectId } })).toBe(0);

    const stored = await importItemSetOfKind(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      kind,
      jsonl,
      { name: "Captions" },
    );
    const items = await prisma.item.findMany({
      where: { setId: stored.set.id! },
      orderBy: { externalId: "asc" },
      select: { externalId: true, kind: true, videoId: true, payload: true },
    });
    expect(items).toEqual([
      {
        externalId: "c1",
        kind: "rubric_7_item",
        videoId: first!.id,
        payload: {
          video: `some/other/folder/${first!.relativePath.split("/").pop()}`,
          fields: { text: "A dog runs.", reference: "A dog." },
          line: 1,
        },
      },
      {
        externalId: "line-2",
        kind: "rubric_7_item",
        videoId: second!.id,
        payload: { video: second!.relativePath, fields: { text: "42", reference: "" }, line: 2 },
      },
    ]);

    const csv = file("captions.csv", `Video,Text,Reference\n${second!.relativePath},"A car, parked.",\n`);
    const fromCsv = await importItemSetOfKind(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      kind,
      csv,
      {},
    );
    const [row] = await prisma.item.findMany({
      where: { setId: fromCsv.set.id! },
      select: { videoId: true, payload: true },
    });
    expect(row).toEqual({
      videoId: second!.id,
      payload: { video: second!.relativePath, fields: { text: "A car, parked.", reference: "" }, line: 2 },
    });
  });

  it("has no item set kind for a rubric that judges videos", () => {
    expect(
      rubricItemSetKind(
        7,
        rubricDefinitionSchema.parse({
          ...captionFaithfulness,
          subject: { kind: "video" },
          prompt: "{{frames}} {{criteria}}",
        }),
      ),
    ).toBeNull();
  });
});
