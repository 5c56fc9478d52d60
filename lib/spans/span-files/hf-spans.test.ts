import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { runHfDatasetExport } from "../../export/hf-dataset";
import { seedFinishedRun } from "../../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { tarEntries } from "../../../testkit/testing/tar-entries";
import { HF_SPANS_FILE, type HfSpanRow } from "./hf-spans";
import { projectAccess } from "../../authz/permissions";

let owner: Actor;
let ann: Actor & { email: string };
let projectId: string;
let videoIds: string[];
let runId: string;
let otherRunId: string;
let labelSetId: string;

const span = (videoId: string, startFrame: number, data: Record<string, unknown>) => ({
  projectId,
  videoId,
  task: "hallucination",
  label: "s1",
  startFrame,
  endFrame: startFrame + 2,
  startS: startFrame / 4,
  endS: (startFrame + 3) / 4,
  authorKind: "reviewer" as const,
  authorId: ann.userId,
  note: "ann's private span note",
  ...data,
});

beforeAll(async () => {
  [owner, ann] = await Promise.all([makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 2 }));
  videoIds.sort();
  await prisma.projectMember.create({ data: { projectId, userId: ann.userId, role: "reviewer" } });
  const scores = () => [{ stepId: "static_hallucination" as const, scopeIndex: 0, category: "s1", value: 8 }];
  const outcome = () => ({ verdict: true, overall: 40, I: 5, S: 5, D: 3 });
  runId = (await seedFinishedRun(prisma, owner, projectId, videoIds, { endpointName: "a", scores, outcome })).runId;
  otherRunId = (await seedFinishedRun(prisma, owner, projectId, videoIds, { endpointName: "b", scores, outcome }))
    .runId;
  await prisma.span.createMany({
    data: [
      span(videoIds[0]!, 0, {}),
      span(videoIds[0]!, 1, { authorKind: "judge", authorId: `run:${runId}`, runId, note: "" }),
      span(videoIds[0]!, 2, { authorKind: "judge", authorId: `run:${otherRunId}`, runId: otherRunId }),
      span(videoIds[1]!, 3, { authorKind: "gold", authorId: "gold", boxes: [{ frame: 3, x: 0, y: 0, w: 1, h: 1 }] }),
      span(videoIds[1]!, 4, { withdrawn: true }),
    ],
  });
  const labelSet = await prisma.labelSet.create({
    data: {
      projectId,
      name: "studio",
      format: "label-studio",
      fileName: "export.json",
      sha256: "0".repeat(64),
      importedById: owner.userId,
      annotators: ["ann@studio.example", "bob@studio.example"],
    },
  });
  const fromLabelSet = (startFrame: number, annotator: string | null) =>
    span(videoIds[1]!, startFrame, {
      authorKind: "label_set",
      authorId: annotator === null ? `labelset:${labelSet.id}` : `labelset:${labelSet.id}:${annotator}`,
      labelSetId: labelSet.id,
      note: "",
    });
  await prisma.span.createMany({
    data: [
      fromLabelSet(5, "bob@studio.example"),
      fromLabelSet(6, "ann@studio.example"),
      fromLabelSet(7, "bob@studio.example"),
      fromLabelSet(8, null),
    ],
  });
  labelSetId = labelSet.id;
});

describe("spans in the Hugging Face export", () => {
  it("writes the run's videos' spans as the spans config: this run's judge, reviewers and annotators unnamed, no notes", async () => {
    const entries = await tarEntries(
      (await runHfDatasetExport(prisma, await projectAccess(prisma, ann, projectId, "export.read"), runId)).stream,
    );
    const rows = entries
      .get(HF_SPANS_FILE)!
      .toString("utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as HfSpanRow);
    expect(rows.map((r) => [r.video_id, r.author_kind, r.author, r.start_frame, r.end_frame, r.boxes.length])).toEqual([
      [videoIds[0], "reviewer", "reviewer_1", 0, 2, 0],
      [videoIds[0], "judge", "judge", 1, 3, 0],
      [videoIds[1], "gold", "gold", 3, 5, 1],
      [videoIds[1], "label_set", `labelset:${labelSetId}:annotator_1`, 5, 7, 0],
      [videoIds[1], "label_set", `labelset:${labelSetId}:annotator_2`, 6, 8, 0],
      [videoIds[1], "label_set", `labelset:${labelSetId}:annotator_1`, 7, 9, 0],
      [videoIds[1], "label_set", `labelset:${labelSetId}`, 8, 10, 0],
    ]);
    const card = entries.get("README.md")!.toString("utf8");
    const meta = parseYaml(card.split(/^---$/m)[1]!) as { configs: { config_name: string }[] };
    expect(meta.configs.map((c) => c.config_name)).toEqual(["default", "spans"]);
    expect(card).toContain("7 span(s) in `spans/spans.jsonl`");
    const text = [entries.get(HF_SPANS_FILE)!.toString("utf8"), card].join("\n");
    for (const secret of [ann.userId, ann.email, "ann's private span note", "@studio.example"])
      expect(text).not.toContain(secret);
  });
});
