/**
 * The label store an alignment reads labels through, on real PostgreSQL: a label set with annotator columns (one
 * reviewer per column, as the demo's and most published sets have) gives each video the median of its annotators'
 * labels. Before, the store read only a set without annotator columns, and the demo's alignment found 0 videos.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { prisma } from "../db/prisma";
import { createLabelSet } from "../label-sets/label-sets";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { labelSetStore } from "./label-store";

let owner: Actor;
let projectId: string;
let videoIds: string[];

beforeAll(async () => {
  owner = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 4,
    keyFrames: 1,
    name: "Label store",
  }));
  videoIds.sort();
});

const verdictOf = (videoId: string) => ({
  task: "hallucination",
  targetType: "verdict",
  target: "verdict",
  videoId,
  itemId: "",
  stepId: "",
  scopeIndex: 0,
  frameSetId: "",
});

describe("a label set's labels of a target", () => {
  it("reads every annotator column of the set, a video's label the median of its annotators'", async () => {
    // Video 0: both yes; video 1: both no; video 2: a split; video 3: one annotator only.
    const byAnnotator: Record<string, (number | null)[]> = { ann: [1, 0, 1, 0], bob: [1, 0, 0, null] };
    const labels = Object.entries(byAnnotator).flatMap(([annotator, values]) =>
      values.flatMap((value, i) => (value === null ? [] : [{ target: verdictOf(videoIds[i]!), value, annotator }])),
    );
    const set = await createLabelSet(
      prisma,
      await projectAccess(prisma, owner, projectId, "videos.import"),
      { name: "Two annotators", format: "generic", fileName: "two.csv", sha256: "3".repeat(64), citation: "" },
      labels,
    );
    const store = labelSetStore(
      prisma,
      { projectId, labelSetId: set.id, task: "hallucination", target: "verdict", targetType: "verdict" },
      (v) => v === 1,
    );
    expect(await store.labelledVideoIds()).toEqual(videoIds);
    expect(await store.labels(videoIds)).toEqual(
      new Map([
        [videoIds[0], 1],
        [videoIds[1], 0],
        [videoIds[2], 0.5],
        [videoIds[3], 0],
      ]),
    );
    // A 1–1 split of a yes/no label is neither class's value: not positive under "== 1".
    expect(await store.strata(videoIds)).toEqual(
      new Map([
        [videoIds[0], true],
        [videoIds[1], false],
        [videoIds[2], false],
        [videoIds[3], false],
      ]),
    );
    // Another target of the same set is not read.
    const other = labelSetStore(
      prisma,
      { projectId, labelSetId: set.id, task: "hallucination", target: "inconsistency" },
      (v) => v >= 5,
    );
    expect(await other.labelledVideoIds()).toEqual([]);
  });
});
