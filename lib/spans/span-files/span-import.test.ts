import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { catalogFor } from "../../task-modules/task-catalogue";
import { getStorage } from "../../storage/storage";
import { makeUser } from "../../../testkit/testing/fixtures";
import { insertProject, insertVideo } from "../../../testkit/testing/raw-rows";
import { parseLabelStudioSpans } from "./label-studio-spans";
import { importSpanLabelSet, type SpanImportInput } from "./span-import";
import { spanExportFile } from "./span-export";
import { MAX_SPAN_FILE_ROWS } from "./span-file-types";
import { parseSpanCsv } from "./span-table";

const deps = { prisma, storage: getStorage() };
const enc = (text: string) => new TextEncoder().encode(text);

let owner: Actor;
let projectId: string;
const video: Record<"a" | "b" | "vfr", string> = { a: "", b: "", vfr: "" };

/** A 30 fps clip of `frames` frames: frame i starts at i/30 s. */
const cfr = (frames: number) => Array.from({ length: frames }, (_, i) => i / 30);

beforeAll(async () => {
  owner = await makeUser();
  projectId = await insertProject(prisma, "Span files", owner.userId);
  await prisma.project.update({
    where: { id: projectId },
    data: {
      spanLabels: [
        { id: "hand", label: "Extra finger", definition: "" },
        { id: "pass_through", label: "Passes through", definition: "" },
      ],
    },
  });
  const add = async (key: keyof typeof video, fileName: string, timesS: number[], endS: number, variable: boolean) => {
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    video[key] = await insertVideo(prisma, {
      projectId,
      sha256: sha,
      sizeBytes: BigInt(1000),
      fileName,
      relativePath: `Mechanics/${fileName}`,
      storageKey: `projects/${projectId}/videos/${sha}.mp4`,
      contentType: "video/mp4",
      status: "ready",
      prompt: "A ball",
      dimensions: ["Mechanics"],
      createdById: owner.userId,
    });
    await prisma.videoFrameTimes.create({ data: { videoId: video[key], timesS, endS, variable } });
  };
  await add("a", "clip-a.mp4", cfr(90), 3, false);
  await add("b", "clip-b.mp4", cfr(60), 2, false);
  // Frames of 40 ms then 20 ms: the rate varies.
  const vfr = Array.from({ length: 20 }, (_, i) => (i < 10 ? i * 0.04 : 0.4 + (i - 10) * 0.02));
  await add("vfr", "clip-vfr.mp4", vfr, 0.6, true);
});

async function importFile(fileName: string, text: string, options: Partial<SpanImportInput> = {}) {
  const catalogue = (await catalogFor(prisma, projectId)).declarations();
  return importSpanLabelSet(
    deps,
    await projectAccess(prisma, owner, projectId, "videos.import"),
    {
      file: enc(text),
      fileName,
      name: `set ${randomUUID()}`,
      format: "spans",
      task: "project",
      dryRun: false,
      ...options,
    },
    catalogue,
  );
}

async function exported(format: "csv" | "jsonl" | "label-studio", labelSet: string) {
  const catalogue = (await catalogFor(prisma, projectId)).declarations();
  return (
    await spanExportFile(
      deps,
      await projectAccess(prisma, owner, projectId, "export.read"),
      format,
      { labelSet },
      catalogue,
    )
  ).body;
}

const CSV = [
  "video,label,start,end,start_frame,end_frame,boxes,annotator,note",
  // Seconds on frame boundaries: frames 30–44 (1.0 s to the end of frame 44 at 1.5 s).
  "Mechanics/clip-a.mp4,hand,1,1.5,,,,alice,fingers",
  // Frames, with a box moving over two keyframes.
  `clip-b.mp4,pass_through,,,10,20,"[{""frame"":10,""x"":0.1,""y"":0.2,""w"":0.3,""h"":0.4},{""frame"":15,""x"":0.2,""y"":0.2,""w"":0.3,""h"":0.4,""enabled"":false}]",bob,"through, the wall"`,
  // A point in time: one frame.
  "clip-a.mp4,pass_through,,,0,0,,alice,'=not a formula",
].join("\r\n");

describe("the export's filters", () => {
  it("narrows by label, by author (an annotator of a label set) and by task", async () => {
    const set = await importFile("spans.csv", CSV);
    const id = set.labelSet!.id;
    const catalogue = (await catalogFor(prisma, projectId)).declarations();
    const rows = async (filter: Record<string, string>) =>
      parseSpanCsv(
        (
          await spanExportFile(
            deps,
            await projectAccess(prisma, owner, projectId, "export.read"),
            "csv",
            { labelSet: id, ...filter },
            catalogue,
          )
        ).body,
      ).rows.map((r) => [r.label, r.annotator, r.startFrame]);
    expect(await rows({ label: "hand" })).toEqual([["hand", "alice", 30]]);
    expect(await rows({ author: `labelset:${id}:bob` })).toEqual([["pass_through", "bob", 10]]);
    expect(await rows({ task: "hallucination" })).toEqual([]);
    expect(await rows({ task: "project" })).toHaveLength(3);
  });
});

describe("CSV and JSONL round trips", () => {
  it("imports a CSV as a label set whose export names the same frames, boxes, annotators and notes", async () => {
    const first = await importFile("spans.csv", CSV);
    expect(first.labelSet?.spans).toBe(3);
    expect(first.labelSet?.annotators).toEqual(["alice", "bob"]);
    const out = parseSpanCsv(await exported("csv", first.labelSet!.id));
    expect(out.problems).toEqual([]);
    expect(
      out.rows.map((r) => [r.videoId, r.video, r.label, r.annotator, r.startFrame, r.endFrame, r.boxes.length, r.note]),
    ).toEqual([
      [video.a, "Mechanics/clip-a.mp4", "pass_through", "alice", 0, 0, 0, "=not a formula"],
      [video.a, "Mechanics/clip-a.mp4", "hand", "alice", 30, 44, 0, "fingers"],
      [video.b, "Mechanics/clip-b.mp4", "pass_through", "bob", 10, 20, 2, "through, the wall"],
    ]);
    // The export, imported again, exports the same file.
    const csv = await exported("csv", first.labelSet!.id);
    const second = await importFile("again.csv", csv);
    expect(await exported("csv", second.labelSet!.id)).toBe(csv);
  });

  it("round-trips JSONL the same way", async () => {
    const first = await importFile("spans.csv", CSV);
    const jsonl = await exported("jsonl", first.labelSet!.id);
    expect(jsonl.trim().split("\n")).toHaveLength(3);
    const second = await importFile("spans.jsonl", jsonl);
    expect(await exported("jsonl", second.labelSet!.id)).toBe(jsonl);
    expect(await exported("csv", second.labelSet!.id)).toBe(await exported("csv", first.labelSet!.id));
  });
});

/** A Label Studio export as Label Studio writes it: two people, timeline labels and a video rectangle. */
function labelStudioExport(videoName: string) {
  return [
    {
      id: 7,
      data: { video: `/data/upload/3/1a2b3c4d-${videoName}` },
      annotations: [
        {
          id: 11,
          completed_by: { id: 1, email: "ann@example.test" },
          was_cancelled: false,
          result: [
            {
              id: "r1",
              type: "timelinelabels",
              from_name: "timelinelabels",
              to_name: "video",
              value: { ranges: [{ start: 1, end: 5 }], timelinelabels: ["hand"] },
            },
            {
              id: "r2",
              type: "videorectangle",
              from_name: "box",
              to_name: "video",
              meta: { text: ["the ball"] },
              value: {
                framesCount: 90,
                duration: 3,
                labels: ["pass_through"],
                sequence: [
                  { frame: 11, x: 10, y: 20, width: 30, height: 40, rotation: 0, enabled: true, time: 0.3667 },
                  { frame: 21, x: 50, y: 20, width: 30, height: 40, rotation: 0, enabled: true, time: 0.7 },
                  { frame: 31, x: 50, y: 20, width: 30, height: 40, rotation: 0, enabled: false, time: 1.0333 },
                ],
              },
            },
          ],
        },
        {
          id: 12,
          completed_by: 2,
          result: [
            {
              id: "r3",
              type: "timelinelabels",
              from_name: "timelinelabels",
              to_name: "video",
              value: { ranges: [{ start: 90, end: 90 }], timelinelabels: ["pass_through"] },
            },
          ],
        },
      ],
    },
  ];
}

/** What a Label Studio file says, by annotator: each result's type, labels, ranges and keyframes. */
function meaning(text: string) {
  const tasks = JSON.parse(text) as { annotations: { result: Record<string, unknown>[] }[] }[];
  return tasks.flatMap((task) =>
    task.annotations.map((annotation) =>
      annotation.result
        .map((r) => {
          const value = r.value as Record<string, unknown>;
          const sequence = (value.sequence as Record<string, number | boolean>[] | undefined)?.map((k) => [
            k.frame,
            Number(k.x).toFixed(9),
            Number(k.y).toFixed(9),
            Number(k.width).toFixed(9),
            Number(k.height).toFixed(9),
            k.enabled,
          ]);
          return JSON.stringify([r.type, value.timelinelabels ?? value.labels, value.ranges ?? null, sequence ?? null]);
        })
        .sort(),
    ),
  );
}

describe("Label Studio round trip", () => {
  it("imports timeline labels and video rectangles (frames from 1) and exports them equal", async () => {
    const file = JSON.stringify(labelStudioExport("clip-a.mp4"));
    const result = await importFile("ls.json", file, { format: "label_studio_spans" });
    expect(result.labelSet?.annotators).toEqual(["ann@example.test", "ls-user-2"]);
    const spans = await prisma.span.findMany({
      where: { labelSetId: result.labelSet!.id },
      orderBy: { startFrame: "asc" },
    });
    // Label Studio's frame 1 is the first frame, FrameJury's index 0.
    expect(spans.map((s) => [s.label, s.startFrame, s.endFrame, s.note])).toEqual([
      ["hand", 0, 4, ""],
      ["pass_through", 10, 30, "the ball"],
      ["pass_through", 89, 89, ""],
    ]);
    const out = await exported("label-studio", result.labelSet!.id);
    expect(meaning(out).sort()).toEqual(meaning(file).sort());
    expect(parseLabelStudioSpans(out).problems).toEqual([]);
  });
});

describe("spans between projects", () => {
  it("imports a project's export into a second project with the same clips, matched by path", async () => {
    const set = await importFile("spans.csv", CSV);
    const csv = await exported("csv", set.labelSet!.id);
    const jsonl = await exported("jsonl", set.labelSet!.id);
    const ls = await exported("label-studio", set.labelSet!.id);
    // Label Studio fetches the clip from its local-files root by the video's path, not from the app.
    expect(JSON.parse(ls)[0].data).toMatchObject({
      video: "/data/local-files/?d=Mechanics/clip-a.mp4",
      path: "Mechanics/clip-a.mp4",
      framejury_video_id: video.a,
    });

    const second = await insertProject(prisma, "Span files, the second", owner.userId);
    await prisma.project.update({
      where: { id: second },
      data: {
        spanLabels: [
          { id: "hand", label: "Extra finger", definition: "" },
          { id: "pass_through", label: "Passes through", definition: "" },
        ],
      },
    });
    for (const [fileName, frames] of [
      ["clip-a.mp4", 90],
      ["clip-b.mp4", 60],
    ] as const) {
      const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
      const id = await insertVideo(prisma, {
        projectId: second,
        sha256: sha,
        sizeBytes: BigInt(1000),
        fileName,
        relativePath: `Mechanics/${fileName}`,
        storageKey: `projects/${second}/videos/${sha}.mp4`,
        contentType: "video/mp4",
        status: "ready",
        prompt: "A ball",
        dimensions: ["Mechanics"],
        createdById: owner.userId,
      });
      await prisma.videoFrameTimes.create({
        data: { videoId: id, timesS: cfr(frames), endS: frames / 30, variable: false },
      });
    }
    const catalogue = (await catalogFor(prisma, second)).declarations();
    const into = async (fileName: string, text: string, options: Partial<SpanImportInput>) =>
      importSpanLabelSet(
        deps,
        await projectAccess(prisma, owner, second, "videos.import"),
        {
          file: enc(text),
          fileName,
          name: `set ${randomUUID()}`,
          format: "spans",
          task: "project",
          dryRun: false,
          ...options,
        },
        catalogue,
      );
    for (const [fileName, text, format] of [
      ["spans.csv", csv, "spans"],
      ["spans.jsonl", jsonl, "spans"],
      ["ls.json", ls, "label_studio_spans"],
    ] as const) {
      const dry = await into(fileName, text, { format, dryRun: true });
      expect(dry.plan).toMatchObject({ spans: 3, matchedVideos: 2, problemCount: 0, matchedBy: { path: 3 } });
      const made = await into(fileName, text, { format });
      const spans = await prisma.span.findMany({
        where: { labelSetId: made.labelSet!.id },
        include: { video: { select: { projectId: true, relativePath: true } } },
        orderBy: [{ startFrame: "asc" }],
      });
      expect(spans.map((s) => [s.video.projectId, s.video.relativePath, s.label, s.startFrame, s.endFrame])).toEqual([
        [second, "Mechanics/clip-a.mp4", "pass_through", 0, 0],
        [second, "Mechanics/clip-b.mp4", "pass_through", 10, 20],
        [second, "Mechanics/clip-a.mp4", "hand", 30, 44],
      ]);
    }
    // In the first project the same file finds its videos by id.
    const again = await importFile("again.csv", csv, { dryRun: true });
    expect(again.plan.matchedBy).toEqual({ id: 3 });
  });

  it("writes the config's labels in their task's order with their names", async () => {
    await prisma.project.update({
      where: { id: projectId },
      data: {
        spanLabels: [
          { id: "hand", label: "Extra finger", definition: "" },
          { id: "pass_through", label: "Passes through", definition: "" },
          ...Array.from({ length: 11 }, (_, i) => ({ id: `s${i + 1}`, label: `Category ${i + 1}`, definition: "" })),
        ],
      },
    });
    const rows = [
      "video,label,start_frame,end_frame",
      ...["s10", "s2", "s1", "hand"].map((l) => `clip-a.mp4,${l},0,1`),
    ];
    const set = await importFile("labels.csv", rows.join("\n"));
    const catalogue = (await catalogFor(prisma, projectId)).declarations();
    const config = (
      await spanExportFile(
        deps,
        await projectAccess(prisma, owner, projectId, "export.read"),
        "label-studio-config",
        { labelSet: set.labelSet!.id },
        catalogue,
      )
    ).body;
    const timeline = config.split("</TimelineLabels>")[0]!;
    expect([...timeline.matchAll(/<Label value="([^"]+)"/g)].map((m) => m[1])).toEqual(["hand", "s1", "s2", "s10"]);
    expect(timeline).toContain('<Label value="s10" html="s10 · Category 10" hint="Category 10"/>');
  });
});

describe("authors' kinds through a round trip", () => {
  it("writes each span's author kind, and refuses a judge run's and the gold's spans (by kind or by name) as people", async () => {
    const project = await insertProject(prisma, "Span authors", owner.userId);
    await prisma.project.update({
      where: { id: project },
      data: { spanLabels: [{ id: "hand", label: "Extra finger", definition: "" }] },
    });
    const sha = randomUUID().replaceAll("-", "").padEnd(64, "0");
    const clip = await insertVideo(prisma, {
      projectId: project,
      sha256: sha,
      sizeBytes: BigInt(1000),
      fileName: "clip-a.mp4",
      relativePath: "Mechanics/clip-a.mp4",
      storageKey: `projects/${project}/videos/${sha}.mp4`,
      contentType: "video/mp4",
      status: "ready",
      prompt: "A ball",
      dimensions: ["Mechanics"],
      createdById: owner.userId,
    });
    await prisma.videoFrameTimes.create({ data: { videoId: clip, timesS: cfr(90), endS: 3, variable: false } });
    const span = (authorKind: "reviewer" | "judge" | "gold", authorId: string, startFrame: number) =>
      prisma.span.create({
        data: {
          projectId: project,
          videoId: clip,
          task: "project",
          label: "hand",
          startFrame,
          endFrame: startFrame + 4,
          startS: startFrame / 30,
          endS: (startFrame + 5) / 30,
          authorKind,
          authorId,
        },
      });
    await span("reviewer", owner.userId, 0);
    await span("judge", "run:r1", 5);
    await span("gold", "gold", 10);
    const catalogue = (await catalogFor(prisma, project)).declarations();
    const exportOf = async (format: "csv" | "jsonl" | "label-studio", filter: Record<string, string> = {}) =>
      (
        await spanExportFile(
          deps,
          await projectAccess(prisma, owner, project, "export.read"),
          format,
          filter,
          catalogue,
        )
      ).body;
    const into = async (fileName: string, text: string, options: Partial<SpanImportInput> = {}) =>
      importSpanLabelSet(
        deps,
        await projectAccess(prisma, owner, project, "videos.import"),
        {
          file: enc(text),
          fileName,
          name: `set ${randomUUID()}`,
          format: "spans",
          task: "project",
          dryRun: false,
          ...options,
        },
        catalogue,
      );

    // The export says which kind of author each span has.
    const csv = await exportOf("csv");
    expect(parseSpanCsv(csv).rows.map((r) => [r.annotator, r.authorKind, r.startFrame])).toEqual([
      [owner.email, "reviewer", 0],
      ["run:r1", "judge", 5],
      ["gold", "gold", 10],
    ]);
    // Imported again, the judge run's and the gold's rows are refused with their reasons; the person's is planned.
    for (const [fileName, text] of [
      ["spans.csv", csv],
      ["spans.jsonl", await exportOf("jsonl")],
    ] as const) {
      const dry = await into(fileName, text, { dryRun: true });
      expect(dry.plan).toMatchObject({ spans: 1, annotators: { [owner.email]: 1 }, problemCount: 2 });
      expect(dry.plan.problems.map((p) => p.message)).toEqual([
        expect.stringMatching(/judge run's span \(author_kind judge\): a label set holds people's spans/),
        expect.stringMatching(/gold span \(author_kind gold\): a label set holds people's spans/),
      ]);
      await expect(into(fileName, text)).rejects.toMatchObject({ status: 400 });
    }
    // A file that does not say its authors' kinds: the names run:… and gold are not people either.
    const unsaid = [
      "video,label,start_frame,end_frame,annotator",
      "clip-a.mp4,hand,0,4,run:r1",
      "clip-a.mp4,hand,0,4,Gold",
    ];
    const dry = await into("unsaid.csv", unsaid.join("\n"), { dryRun: true });
    expect(dry.plan.problems.map((p) => [p.row, p.message])).toEqual([
      [2, expect.stringMatching(/"run:r1" names a judge run, not a person/)],
      [3, expect.stringMatching(/"gold" names the adjudicated gold, not a person/)],
    ]);
    // Label Studio: the run's spans are a prediction (not read), the gold's annotation is refused by its name.
    const ls = await into("ls.json", await exportOf("label-studio"), { format: "label_studio_spans", dryRun: true });
    expect(ls.plan).toMatchObject({ spans: 1, annotators: { [owner.email]: 1 }, problemCount: 1 });
    expect(ls.plan.problems[0]!.message).toMatch(/"gold" names the adjudicated gold/);
    // People's spans go round: the person's span comes back as a label set's annotator, and that export imports too.
    const people = await into("people.csv", await exportOf("csv", { author: owner.userId }));
    const again = await exportOf("csv", { labelSet: people.labelSet!.id });
    expect(parseSpanCsv(again).rows.map((r) => [r.annotator, r.authorKind])).toEqual([[owner.email, "label_set"]]);
    expect((await into("again.csv", again, { dryRun: true })).plan).toMatchObject({ spans: 1, problemCount: 0 });
  });
});

describe("bad span files", () => {
  const countSets = () => prisma.labelSet.count({ where: { projectId } });

  it("refuses the whole file, naming each bad row and why, and writes nothing", async () => {
    const before = await countSets();
    const spansBefore = await prisma.span.count({ where: { projectId } });
    const bad = [
      "video,label,start_frame,end_frame,boxes",
      "clip-a.mp4,hand,0,4,", // line 2: fine
      "clip-a.mp4,hand,80,95,", // line 3: outside the video (frames 0–89)
      "clip-a.mp4,hand,10,5,", // line 4: ends before it starts
      "clip-a.mp4,sixth_toe,1,2,", // line 5: unknown label
      `clip-a.mp4,hand,1,2,"[{""frame"":1,""x"":0.8,""y"":0.1,""w"":0.5,""h"":0.1}]"`, // line 6: box outside the frame
      "nowhere.mp4,hand,1,2,", // line 7: no such video
      "__proto__,hand,1,2,", // line 8: a name like any other
    ].join("\n");
    const error = await importFile("bad.csv", bad).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    const problems = (error as { details: { problems: { row: number; message: string }[] } }).details.problems;
    expect(problems.map((p) => p.row)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(problems[0]!.message).toMatch(/outside the video/);
    expect(problems[1]!.message).toMatch(/before it starts/);
    expect(problems[2]!.message).toMatch(/"sixth_toe" is not a label/);
    expect(problems[3]!.message).toMatch(/outside the frame/);
    expect(problems[4]!.message).toMatch(/not a video of this project/);
    expect(problems[5]!.message).toMatch(/"__proto__" is not a video/);
    expect(await countSets()).toBe(before);
    expect(await prisma.span.count({ where: { projectId } })).toBe(spansBefore);
  });

  it("lists the same problems on a dry run, and writes nothing", async () => {
    const result = await importFile("bad.csv", "video,label,start,end\nclip-a.mp4,hand,2,1\n", { dryRun: true });
    expect(result.labelSet).toBeNull();
    expect(result.plan.problems).toEqual([
      { row: 2, where: "line 2", message: expect.stringMatching(/before it starts/) },
    ]);
  });

  it("refuses an escaped NUL in any text of a JSONL or Label Studio file with a 400 naming the row and field", async () => {
    const spansBefore = await prisma.span.count({ where: { projectId } });
    const jsonl = [
      '{"video":"clip-a.mp4","label":"hand","start_frame":0,"end_frame":1,"note":"fine"}',
      '{"video":"clip-a.mp4","label":"hand","start_frame":0,"end_frame":1,"note":"a\\u0000b"}',
      '{"video":"clip-a.mp4","label":"hand","start_frame":0,"end_frame":1,"annotator":"\\u0000"}',
      '{"video_id":"v\\u0000","label":"hand","start_frame":0,"end_frame":1}',
    ].join("\n");
    expect(jsonl).not.toContain("\u0000");
    const error = await importFile("nul.jsonl", jsonl).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    expect((error as { details: { problems: unknown[] } }).details.problems).toEqual([
      { row: 2, where: "line 2", message: "note: must not contain NUL bytes (U+0000)." },
      { row: 3, where: "line 3", message: "annotator: must not contain NUL bytes (U+0000)." },
      { row: 4, where: "line 4", message: "video_id: must not contain NUL bytes (U+0000)." },
    ]);
    const ls = JSON.stringify([
      {
        data: { video: "clip-a.mp4" },
        annotations: [
          {
            result: [
              {
                type: "timelinelabels",
                value: { ranges: [{ start: 1, end: 2 }], timelinelabels: ["hand"] },
                meta: { text: ["x\u0000"] },
              },
            ],
          },
        ],
      },
    ]);
    const dry = await importFile("nul.json", ls, { format: "label_studio_spans", dryRun: true });
    expect(dry.plan.problems).toEqual([
      {
        row: 1,
        where: "task 1, annotation 1, result 1",
        message: "meta.text: must not contain NUL bytes (U+0000).",
      },
    ]);
    await expect(importFile("nul.json", ls, { format: "label_studio_spans" })).rejects.toMatchObject({ status: 400 });
    expect(await prisma.span.count({ where: { projectId } })).toBe(spansBefore);
  });

  it("refuses a Label Studio file for other videos, naming each result", async () => {
    const error = await importFile("ls.json", JSON.stringify(labelStudioExport("someone-elses.mp4")), {
      format: "label_studio_spans",
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    const problems = (error as { details: { problems: { where: string; message: string }[] } }).details.problems;
    expect(problems.map((p) => p.where)).toEqual([
      "task 1, annotation 1, result 1",
      "task 1, annotation 1, result 2",
      "task 1, annotation 2, result 1",
    ]);
    expect(problems[0]!.message).toMatch(/someone-elses\.mp4" is not a video of this project/);
  });

  it("refuses seconds inside a frame of a video whose frame rate varies, and reads them on its boundaries", async () => {
    const error = await importFile("vfr.csv", "video,label,start,end\nclip-vfr.mp4,hand,0.05,0.42\n").catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ status: 400 });
    expect((error as { details: { problems: { message: string }[] } }).details.problems[0]!.message).toMatch(
      /frame rate varies.*start 0\.05 s falls inside frame 1 \(0\.04 s–0\.08 s/,
    );
    // 0.04 s starts frame 1; 0.42 s ends frame 10 (0.40–0.42 s).
    const ok = await importFile("vfr.csv", "video,label,start,end\nclip-vfr.mp4,hand,0.04,0.42\n");
    const span = await prisma.span.findFirstOrThrow({ where: { labelSetId: ok.labelSet!.id } });
    expect([span.startFrame, span.endFrame]).toEqual([1, 10]);
  });

  it("refuses 100,000 spans in one file (more than the limit) with a 413 naming it", async () => {
    const lines = ["video,label,start_frame,end_frame"];
    for (let i = 0; i < 100_000; i++) lines.push("clip-a.mp4,hand,0,0");
    const error = await importFile("many.csv", lines.join("\n")).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 413, details: { limit: MAX_SPAN_FILE_ROWS } });
    expect((error as Error).message).toMatch(/at most 50,000/);
    // JSONL: its lines are counted before any is parsed (these would not parse: no stretch).
    const jsonl = Array.from({ length: 100_000 }, () => '{"video":"clip-a.mp4","label":"hand"}');
    await expect(importFile("many.jsonl", jsonl.join("\n"))).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/^The file holds 100,000 spans; a span file may hold at most 50,000/),
    });
  });
});
