import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { setGold } from "../adjudication/adjudication";
import { prisma } from "../db/prisma";
import { parseCsvTable } from "../import/csv";
import { judgmentKey, metricTarget } from "../reviews/judgment-key";
import { reviewVideoOutcome } from "../reviews/reviews";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { insertJudgment } from "../../testkit/testing/judgments";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { type ExportRow, projectExport } from "./export";
import { exportQuerySchema } from "./report-filter";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

/*
 * The items CSV writes a value on a categorical scale as the UI shows it, the scale's label (issue 38, finding 13:
 * it wrote the verdict as 1/0 where every page says yes/no): the judge's value, the gold value and each reviewer's
 * value. Numeric scales stay numbers, and JSONL stays numeric throughout (its consumers compute with it).
 *
 * Two videos judged by one hallucination run: v0's verdict yes (overall 40), v1's no (overall 80), one s1 score
 * each (8, then 2). The owner judges v0's verdict "no" and v0's s1 presence "present"; the gold verdict of v0 is yes.
 */
let owner: Actor;
let projectId: string;
let videoIds: string[];

beforeAll(async () => {
  owner = await makeUser();
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    name: "Labels",
  }));
  videoIds.sort(); // the export's order
  const { runId } = await seedFinishedRun(prisma, owner, projectId, videoIds, {
    scores: (v) => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: [8, 2][v]! }],
    outcome: (v) => ({ verdict: v === 0, overall: [40, 80][v]! }),
  });
  await reviewVideoOutcome(
    prisma,
    await projectAccess(prisma, owner, projectId, "scores.review"),
    runId,
    videoIds[0]!,
    "verdict",
    { value: 0 },
  );
  await insertJudgment(prisma, {
    projectId,
    task: "hallucination",
    targetType: "presence",
    target: "s1",
    videoId: videoIds[0]!,
    reviewerId: owner.userId,
    value: 1,
  });
  await setGold(prisma, owner, projectId, {
    targetKey: judgmentKey(metricTarget("hallucination", videoIds[0]!, "", "verdict")),
    value: 1,
  });
});

async function exported(format: "csv" | "jsonl"): Promise<string> {
  return new Response(
    (
      await projectExport(
        prisma,
        await projectAccess(prisma, owner, projectId, "export.read"),
        exportQuerySchema(builtInCatalogue()).parse({ format }),
      )
    ).stream,
  ).text();
}

describe("the items export's values on a categorical scale", () => {
  it("are the scale's labels in CSV (yes/no for the verdict, present/absent for presence); numbers stay numbers", async () => {
    const table = parseCsvTable(await exported("csv"));
    if (!table.ok) throw new Error(table.error);
    const reviewerValue = table.columns.find((column) => column.endsWith(" value") && column !== "gold_value")!;
    expect(reviewerValue).toBeDefined();
    const cells = table.rows.map(({ values }) =>
      ["video_id", "target", "category", "judge_value", "gold_value", reviewerValue].map((column) =>
        values.get(column),
      ),
    );
    expect(cells).toEqual([
      [videoIds[0], "score", "s1", "8", "", ""],
      [videoIds[0], "verdict", "verdict", "yes", "yes", "no"],
      [videoIds[0], "overall", "overall", "40", "", ""],
      [videoIds[0], "presence", "s1", "present", "", "present"],
      [videoIds[1], "score", "s1", "2", "", ""],
      [videoIds[1], "verdict", "verdict", "no", "", ""],
      [videoIds[1], "overall", "overall", "80", "", ""],
    ]);
  });

  it("stay numbers in JSONL", async () => {
    const rows = (await exported("jsonl"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as ExportRow);
    const verdict = rows.find((row) => row.videoId === videoIds[0] && row.target === "verdict")!;
    expect([verdict.judgeValue, verdict.gold?.value, verdict.reviews.map((review) => review.value)]).toEqual([
      1,
      1,
      [0],
    ]);
    const presence = rows.find((row) => row.target === "presence")!;
    expect([presence.judgeValue, presence.reviews.map((review) => review.value)]).toEqual([1, [1]]);
    expect(rows.find((row) => row.videoId === videoIds[1] && row.target === "verdict")!.judgeValue).toBe(0);
    // Only the row's own fields: no scale or labels are added to a JSONL line.
    expect(Object.keys(verdict).sort()).toEqual(
      [
        "videoId",
        "path",
        "prompt",
        "model",
        "dimensions",
        "runId",
        "endpoint",
        "target",
        "step",
        "scopeIndex",
        "keyFrameIndex",
        "category",
        "promptVersion",
        "judgeValue",
        "frameTimestamps",
        "reviews",
        "gold",
      ].sort(),
    );
  });
});
