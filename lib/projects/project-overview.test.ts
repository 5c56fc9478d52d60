import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { makeUser } from "../../testkit/testing/fixtures";
import { insertJudgment } from "../../testkit/testing/judgments";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { projectOverviewCounts, reviewCountsSentence } from "./project-overview";
import { projectAccess } from "../authz/permissions";

describe("projectOverviewCounts", () => {
  it("counts videos by status, runs, judgments, reviewers and open queues, for members only", async () => {
    const [owner, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 3,
      keyFrames: 1,
      name: "Overview",
    });
    await prisma.video.update({ where: { id: videoIds[2]! }, data: { status: "pending_extraction" } });
    await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
    const endpoint = await prisma.judgeEndpoint.create({
      data: { projectId, name: "e", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
    });
    const run = await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "hallucination",
        endpointId: endpoint.id,
        createdById: owner.userId,
        status: "done",
      },
    });
    await prisma.reviewQueue.create({
      data: { projectId, name: "open", runId: run.id, scope: "verdict", createdById: owner.userId },
    });
    await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "archived",
        runId: run.id,
        scope: "verdict",
        createdById: owner.userId,
        archivedAt: new Date(),
      },
    });

    const counts = await projectOverviewCounts(prisma, await projectAccess(prisma, viewer, projectId, "project.view"));
    expect(counts).toEqual({
      videos: { total: 3, byStatus: { ready: 2, pending_extraction: 1 } },
      runs: 1,
      judgments: 0,
      myJudgments: 0,
      reviewers: 0,
      reviewerJudgments: 0,
      labelSets: 0,
      labelSetJudgments: 0,
      openQueues: 1,
    });
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
  });

  // Issue 38, finding 8: an imported label set's annotator is not a person, so "16 judgments by 1 reviewer" where
  // the only member had given none misled. People and label sets are counted apart.
  it("counts the people who judged apart from the label sets, whatever their annotator columns", async () => {
    const [owner, reviewer] = await Promise.all([makeUser(), makeUser()]);
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 2,
      keyFrames: 1,
      name: "Label set overview",
    });
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const labelSet = async (name: string, annotators: string[]) =>
      (
        await prisma.labelSet.create({
          data: {
            projectId,
            name,
            format: "t2vhalubench",
            fileName: "labels.csv",
            sha256: "0".repeat(64),
            importedById: owner.userId,
            annotators,
          },
        })
      ).id;
    const judge = async (reviewerId: string, videoId: string, target: string, labelSetId: string | null = null) => {
      const row = await insertJudgment(prisma, {
        projectId,
        task: "hallucination",
        targetType: "presence",
        target,
        videoId,
        reviewerId,
        value: 1,
      });
      if (labelSetId) await prisma.humanJudgment.update({ where: { id: row.id }, data: { labelSetId } });
    };
    // One label set with one annotator (4 labels) and one with two annotator columns (2 + 2 labels): 2 label sets, 8 labels.
    const single = await labelSet("T2VHaluBench authors", []);
    for (const videoId of videoIds)
      for (const target of ["s1", "s2"]) await judge(`labelset:${single}`, videoId, target, single);
    const double = await labelSet("Two annotators", ["a1", "a2"]);
    for (const column of ["a1", "a2"])
      for (const videoId of videoIds) await judge(`labelset:${double}:${column}`, videoId, "s3", double);

    const onlyLabelSets = await projectOverviewCounts(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
    );
    expect(onlyLabelSets).toMatchObject({
      judgments: 8,
      myJudgments: 0,
      reviewers: 0,
      reviewerJudgments: 0,
      labelSets: 2,
      labelSetJudgments: 8,
    });
    expect(reviewCountsSentence(onlyLabelSets)).toBe("8 judgments from 2 label sets · 0 yours");

    // A person's judgments beside them, one of them withdrawn (counted nowhere).
    await judge(reviewer.userId, videoIds[0]!, "s1");
    await judge(reviewer.userId, videoIds[1]!, "s1");
    await prisma.humanJudgment.updateMany({
      where: { projectId, reviewerId: reviewer.userId, videoId: videoIds[1]! },
      data: { withdrawn: true },
    });
    const mixed = await projectOverviewCounts(prisma, await projectAccess(prisma, reviewer, projectId, "project.view"));
    expect(mixed).toMatchObject({
      judgments: 9,
      myJudgments: 1,
      reviewers: 1,
      reviewerJudgments: 1,
      labelSets: 2,
      labelSetJudgments: 8,
    });
    expect(reviewCountsSentence(mixed)).toBe("9 judgments: 1 by 1 reviewer, 8 from 2 label sets · 1 yours");
  });
});

describe("reviewCountsSentence", () => {
  const counts = {
    judgments: 0,
    myJudgments: 0,
    reviewers: 0,
    reviewerJudgments: 0,
    labelSets: 0,
    labelSetJudgments: 0,
  };
  it("names only what there is, in the singular for one", () => {
    expect(
      reviewCountsSentence({ ...counts, judgments: 12, reviewerJudgments: 12, reviewers: 2, myJudgments: 5 }),
    ).toBe("12 judgments by 2 reviewers · 5 yours");
    expect(reviewCountsSentence({ ...counts, judgments: 1, reviewerJudgments: 1, reviewers: 1, myJudgments: 1 })).toBe(
      "1 judgment by 1 reviewer · 1 yours",
    );
    expect(reviewCountsSentence({ ...counts, judgments: 16, labelSetJudgments: 16, labelSets: 1 })).toBe(
      "16 judgments from 1 label set · 0 yours",
    );
    expect(
      reviewCountsSentence({
        ...counts,
        judgments: 16,
        reviewerJudgments: 12,
        reviewers: 1,
        labelSetJudgments: 4,
        labelSets: 1,
      }),
    ).toBe("16 judgments: 12 by 1 reviewer, 4 from 1 label set · 0 yours");
    expect(reviewCountsSentence(counts)).toBe("0 judgments · 0 yours");
  });
});
