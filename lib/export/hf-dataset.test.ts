import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import type { ObjectStorage } from "../storage/object-storage";
import { getStorage } from "../storage/storage";
import { reviewScore, reviewVideoOutcome } from "../reviews/reviews";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { tarEntries } from "../../testkit/testing/tar-entries";
import { WithheldError } from "../visibility/withheld";
import { hfDataGlob, type HfDatasetRow, runHfDatasetExport } from "./hf-dataset";
import { projectAccess } from "../authz/permissions";

/*
 * Issue 28, item 3: a run as a Hugging Face dataset. Two videos with two key frames each (frames 0–5,
 * key frames 1 and 4, clusters {0,1,2} and {3,4,5}); run r1 judges both; ann and bob review some targets.
 * The tar is read back entry by entry and every value compared with the database.
 */
let owner: Actor;
let ann: Actor & { email: string };
let bob: Actor & { email: string };
let stranger: Actor;
let projectId: string;
let videoIds: string[];
let runId: string;

beforeAll(async () => {
  [owner, ann, bob, stranger] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 2,
    name: "HF export",
  }));
  videoIds.sort();
  for (const actor of [ann, bob])
    await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role: "reviewer" } });
  const run = await seedFinishedRun(prisma, owner, projectId, videoIds, {
    endpointName: "alpha",
    templateHash: "aaaaaaaaaaaaaaaa",
    scores: (v) => [
      { stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: [8, 2][v]! },
      { stepId: "dynamic_hallucination", scopeIndex: 1, category: "d1", value: 4 },
    ],
    outcome: (v) => ({ verdict: [true, false][v]!, overall: [40, 80][v]!, I: 5, S: 5, D: 3 }),
  });
  runId = run.runId;
  const s1 = (v: number) => run.scoreIds.get(`${v}:static_hallucination:0:s1`)!;
  await reviewScore(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), s1(0), {
    value: 9,
    note: "ann's private note",
    reason: "hands",
  });
  await reviewScore(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), s1(0), { value: 7 });
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, ann, projectId, "scores.review"),
    runId,
    videoIds[1]!,
    "verdict",
    { value: 1 },
  );
});

describe("runHfDatasetExport (database)", () => {
  it("writes JSONL rows, the frames the judge saw and a dataset card whose YAML front matter the Hub reads", async () => {
    const { stream, filename } = await runHfDatasetExport(
      prisma,
      await projectAccess(prisma, ann, projectId, "export.read"),
      runId,
    );
    expect(filename).toMatch(/^framejury_HF-export_hf-dataset_runId-.+\.tar$/);
    const entries = await tarEntries(stream);

    // Rows: 2 videos × (2 scores + verdict + overall), in video order, with values from the database.
    expect([...entries.keys()].filter((n) => n.startsWith("data/"))).toEqual(["data/test-00000.jsonl"]);
    const rows = entries
      .get("data/test-00000.jsonl")!
      .toString("utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as HfDatasetRow);
    expect(rows.map((r) => [r.video_id, r.target, r.category, r.judge_value])).toEqual([
      [videoIds[0], "score", "d1", 4],
      [videoIds[0], "score", "s1", 8],
      [videoIds[0], "verdict", "verdict", 1],
      [videoIds[0], "overall", "overall", 40],
      [videoIds[1], "score", "d1", 4],
      [videoIds[1], "score", "s1", 2],
      [videoIds[1], "verdict", "verdict", 0],
      [videoIds[1], "overall", "overall", 80],
    ]);
    const scores = await prisma.score.findMany({
      where: { runId },
      select: { videoId: true, category: true, value: true },
    });
    for (const s of scores)
      expect(rows.find((r) => r.video_id === s.videoId && r.category === s.category)!.judge_value).toBe(s.value);
    const reviewed = rows.find((r) => r.video_id === videoIds[0] && r.category === "s1")!;
    expect([...reviewed.human_values].sort()).toEqual([7, 9]);
    expect(reviewed.human_mean).toBe(8);
    expect(reviewed.human_accepted_judge).toEqual([false, false]);
    expect(reviewed.label_id).toBe("s1");
    expect(reviewed.prompt_version).toBe("aaaaaaaaaaaaaaaa");
    expect(rows.find((r) => r.video_id === videoIds[1] && r.target === "verdict")!.human_values).toEqual([1]);
    expect(rows.find((r) => r.video_id === videoIds[1] && r.category === "s1")!.human_mean).toBeNull();

    // Frames: s1 at key frame 0 saw frame 1 (its timestamp 0.25 s); the d1 cluster 1 saw frames 3–5. Each
    // referenced file is in the tar with the stored frame's bytes.
    expect(reviewed.frame_timestamps).toEqual([0.25]);
    expect(reviewed.frames).toEqual([`frames/${videoIds[0]}/00001.jpg`]);
    expect(rows.find((r) => r.video_id === videoIds[0] && r.category === "d1")!.frames).toEqual(
      [3, 4, 5].map((i) => `frames/${videoIds[0]}/0000${i}.jpg`),
    );
    const frameFiles = [...entries.keys()].filter((n) => n.startsWith("frames/"));
    for (const row of rows) for (const f of row.frames) expect(frameFiles).toContain(f);
    const stored = await prisma.frame.findMany({
      where: { frameSet: { videoId: videoIds[0] } },
      select: { index: true, sha256: true },
    });
    for (const name of frameFiles.filter((n) => n.startsWith(`frames/${videoIds[0]}/`))) {
      const index = Number(name.slice(-9, -4));
      expect(createHash("sha256").update(entries.get(name)!).digest("hex")).toBe(
        stored.find((f) => f.index === index)!.sha256,
      );
    }

    // The card: YAML front matter (parsed with the repo's yaml library), features, labels, agreement, provenance.
    const card = entries.get("README.md")!.toString("utf8");
    const [, front, body] = card.split(/^---$/m);
    const meta = parseYaml(front!) as Record<string, unknown> & {
      configs: { config_name: string; data_files: { split: string; path: string }[] }[];
      dataset_info: {
        features: { name: string; dtype?: string; sequence?: string }[];
        splits: { name: string; num_examples: number }[];
      };
      task_categories: string[];
    };
    expect(meta.configs).toEqual([
      { config_name: "default", data_files: [{ split: "test", path: hfDataGlob("test") }] },
    ]);
    expect(meta.dataset_info.splits).toEqual([{ name: "test", num_examples: rows.length }]);
    expect(meta.dataset_info.features.map((f) => f.name).sort()).toEqual(Object.keys(rows[0]!).sort());
    expect(meta.dataset_info.features.find((f) => f.name === "frames")).toEqual({ name: "frames", sequence: "string" });
    expect(meta.license).toBe("other");
    expect(meta.task_categories).toEqual(["video-classification"]);
    const task = BUILT_IN_DECLARATIONS.tasks.find((t) => t.id === "hallucination")!;
    for (const label of [...task.targets, ...task.metrics])
      expect(body).toContain(`| \`${label.id}\` | ${label.label.replaceAll("|", "\\|")} |`);
    expect(body).toContain('Judge: endpoint "alpha", model `stub-model`');
    expect(body).toContain("Prompt template hashes: `aaaaaaaaaaaaaaaa`");
    expect(body).toContain("Reviewers counted: 2 (not named");
    expect(body).toContain("2 reviewer(s) gave 3 judgment(s)");
    expect(body).toMatch(/\| judge vs consensus, score \| \d+ \| mae \| /);

    // Reviewers are counted, never named: no id, email or note of theirs anywhere in the dataset.
    const text = [...entries.entries()]
      .filter(([n]) => !n.startsWith("frames/"))
      .map(([, b]) => b.toString("utf8"))
      .join("\n");
    for (const secret of [ann.userId, bob.userId, ann.email, bob.email, "ann's private note"])
      expect(text).not.toContain(secret);
  });

  it("errors the stream when reading fails part-way, so the download fails instead of ending as a whole tar", async () => {
    const failing = {
      ...getStorage(),
      get: () => Promise.reject(new Error("storage went away")),
    } as ObjectStorage;
    const { stream } = await runHfDatasetExport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      runId,
      { storage: failing },
    );
    await expect(tarEntries(stream)).rejects.toThrow(/storage went away/);
  });

  it("is withheld whole, before the first byte, from someone reviewing one of the run's videos blind", async () => {
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "HF blind",
        runId,
        scope: "verdict",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({
      data: { queueId: queue.id, videoId: videoIds[1]!, position: 0 },
    });
    await prisma.reviewQueueAssignment.create({ data: { itemId: item.id, queueId: queue.id, reviewerId: bob.userId } });
    const withheld = await runHfDatasetExport(
      prisma,
      await projectAccess(prisma, bob, projectId, "export.read"),
      runId,
    ).catch((error: unknown) => error);
    expect(withheld).toBeInstanceOf(WithheldError);
    expect((withheld as WithheldError).message).toContain('hidden while you review "HF blind" blind: 1 item left');
    await prisma.reviewQueue.update({ where: { id: queue.id }, data: { archivedAt: new Date() } });
  });

  it("is for members only, and only for a run of the project", async () => {
    await expect(projectAccess(prisma, stranger, projectId, "export.read")).rejects.toBeInstanceOf(NotFoundError);
    const other = await projectWithFramedVideos(prisma, stranger, { videoCount: 1, keyFrames: 1, name: "Other" });
    await expect(
      runHfDatasetExport(prisma, await projectAccess(prisma, stranger, other.projectId, "export.read"), runId),
    ).rejects.toThrow(/Run not found/);
  });
});
