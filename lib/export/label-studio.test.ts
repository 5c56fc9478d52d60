import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { WithheldError } from "../visibility/withheld";
import { type LabelStudioResult, type LabelStudioTask, runLabelStudioExport } from "./label-studio";
import { runExportsWithheld } from "./run-downloads";
import { projectAccess } from "../authz/permissions";

/*
 * Issue 28, item 3: a run's videos as Label Studio tasks with the judge's per-video metrics as predictions,
 * and the labelling config those predictions' control names belong to. Read back as JSON and compared with
 * the database's run_metric rows.
 */
let owner: Actor;
let stranger: Actor;
let projectId: string;
let videoIds: string[];
let runId: string;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([makeUser(), makeUser()]);
  ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 1,
    name: "LS export",
  }));
  videoIds.sort();
  runId = (
    await seedFinishedRun(prisma, owner, projectId, videoIds, {
      endpointName: "alpha",
      scores: () => [{ stepId: "static_hallucination", scopeIndex: 0, category: "s1", value: 6 }],
      outcome: (v) => ({ verdict: [true, false][v]!, overall: [40, 80][v]!, I: 5, S: 5, D: 3 }),
    })
  ).runId;
});

describe("runLabelStudioExport (database)", () => {
  it("is withheld whole from someone reviewing one of the run's videos blind, naming the queue, and whole once they submit it", async () => {
    const reviewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: reviewer.userId, role: "reviewer" } });
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId,
        name: "LS blind",
        runId,
        scope: "verdict",
        blind: true,
        itemCount: 1,
        createdById: owner.userId,
      },
    });
    const item = await prisma.reviewQueueItem.create({
      data: { queueId: queue.id, videoId: videoIds[0]!, position: 0 },
    });
    await prisma.reviewQueueAssignment.create({
      data: { itemId: item.id, queueId: queue.id, reviewerId: reviewer.userId },
    });
    const withheld = await runLabelStudioExport(
      prisma,
      await projectAccess(prisma, reviewer, projectId, "export.read"),
      runId,
    ).catch((error: unknown) => error);
    expect(withheld).toBeInstanceOf(WithheldError);
    expect((withheld as WithheldError).message).toContain('hidden while you review "LS blind" blind: 1 item left');
    // The run page and the Agreement page ask the same before offering the links.
    expect(await runExportsWithheld(prisma, reviewer.userId, runId)).toEqual({
      queues: [{ id: queue.id, name: "LS blind", itemsLeft: 1 }],
      blindVideos: 1,
    });
    expect(await runExportsWithheld(prisma, owner.userId, runId)).toBeNull();
    await prisma.reviewQueueAssignment.update({
      where: { itemId_reviewerId: { itemId: item.id, reviewerId: reviewer.userId } },
      data: { status: "done", doneAt: new Date() },
    });
    expect(await runExportsWithheld(prisma, reviewer.userId, runId)).toBeNull();
    expect(
      (await runLabelStudioExport(prisma, await projectAccess(prisma, reviewer, projectId, "export.read"), runId))
        .tasks,
    ).toEqual(
      (await runLabelStudioExport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), runId)).tasks,
    );
  });

  it("gives one task per video with the judge's metrics as predictions that match the labelling config", async () => {
    const exported = await runLabelStudioExport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      runId,
    );
    const tasks = JSON.parse(JSON.stringify(exported.tasks)) as LabelStudioTask[];
    expect(exported.tasksFileName).toMatch(/^framejury_LS-export_label-studio-tasks_runId-.+\.json$/);
    expect(tasks.map((t) => t.data.framejury_video_id)).toEqual(videoIds);
    const task = BUILT_IN_DECLARATIONS.tasks.find((t) => t.id === "hallucination")!;
    const stored = await prisma.runMetric.findMany({ where: { runId, itemId: "" } });
    const controls = [...exported.config.matchAll(/<(Number|Choices) name="([^"]+)"/g)].map((m) => m[2]);
    expect(exported.config).toMatch(/^<View>\n {2}<Video name="video" value="\$video"\/>/);
    for (const t of tasks) {
      expect(t.data.video).toMatch(new RegExp(`/api/v1/videos/${t.data.framejury_video_id}/file$`));
      expect(t.data.prompt).toMatch(/^A ball rolls down a ramp number \d$/);
      expect(t.predictions).toHaveLength(1);
      const [prediction] = t.predictions;
      expect(prediction!.model_version).toBe(`stub-model (run ${runId})`);
      const expected = task.metrics.flatMap((m): LabelStudioResult[] => {
        const row = stored.find((s) => s.videoId === t.data.framejury_video_id && s.metric === m.id);
        if (!row) return [];
        if (m.scale.kind === "numeric")
          return [{ from_name: m.id, to_name: "video", type: "number", value: { number: row.value } }];
        return [
          {
            from_name: m.id,
            to_name: "video",
            type: "choices",
            value: { choices: [m.scale.values.find((v) => v.value === row.value)!.label] },
          },
        ];
      });
      expect(expected.length).toBeGreaterThan(1);
      expect(prediction!.result).toEqual(expected);
      for (const r of prediction!.result) expect(controls).toContain(r.from_name);
      for (const r of prediction!.result)
        if ("choices" in r.value) expect(exported.config).toContain(`<Choice value="${r.value.choices[0]}"/>`);
    }
    // The verdict is the prediction's score: yes (1) for v0, no (0) for v1.
    const verdict = task.verdict!.metricId;
    expect(tasks.map((t) => t.predictions[0]!.score)).toEqual(
      videoIds.map((id) => stored.find((s) => s.videoId === id && s.metric === verdict)!.value),
    );
  });

  it("is for members only, and only for a run of the project", async () => {
    await expect(projectAccess(prisma, stranger, projectId, "export.read")).rejects.toBeInstanceOf(NotFoundError);
    const other = await projectWithFramedVideos(prisma, stranger, { videoCount: 1, keyFrames: 1, name: "Other" });
    await expect(
      runLabelStudioExport(prisma, await projectAccess(prisma, stranger, other.projectId, "export.read"), runId),
    ).rejects.toThrow(/Run not found/);
  });
});
