import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { compareSetupsReport } from "../../calibration/compare-setups-load";
import { calibrationReport } from "./paper-table-load";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { CLIPS } from "../../../testkit/demo/demo-clips";
import { seedFinishedRun, type SeedScore } from "../../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { DEMO_LABEL_SET, importDemoLabelSet } from "./demo-seed";
import { DYNAMIC_CATEGORY_IDS, STATIC_CATEGORY_IDS } from "./schemas";

/** Every category scored: `high` on s1 and d1 where given, 0 elsewhere. */
function scores(s1: number, d1: number, inconsistency: number): SeedScore[] {
  const out: SeedScore[] = [];
  for (const c of STATIC_CATEGORY_IDS)
    out.push({ stepId: "static_hallucination", scopeIndex: 0, category: c, value: c === "s1" ? s1 : 0 });
  for (const c of DYNAMIC_CATEGORY_IDS)
    out.push({ stepId: "dynamic_hallucination", scopeIndex: 0, category: c, value: c === "d1" ? d1 : 0 });
  out.push({ stepId: "inconsistency", scopeIndex: 0, category: "inconsistency", value: inconsistency });
  return out;
}

describe("the demo's label set", () => {
  let owner: Actor;
  let projectId: string;
  let videoIds: string[];

  beforeAll(async () => {
    owner = await makeUser();
    ({ projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: CLIPS.length,
      keyFrames: 1,
      name: "Demo labels",
    }));
    // The demo's videos: CLIPS' file names under the "Demo model" folder, as seeding uploads them.
    for (const [i, id] of videoIds.entries()) {
      await prisma.video.update({
        where: { id },
        data: {
          fileName: path.basename(CLIPS[i]!.path),
          relativePath: `Demo model/${CLIPS[i]!.path}`,
          model: "Demo model",
        },
      });
    }
  });

  it("imports cleanly over every demo clip and gives Paper's table and Compare judge setups numbers with both classes", async () => {
    const imported = await importDemoLabelSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"));
    expect(imported).toMatchObject({ videos: CLIPS.length, labels: CLIPS.length * 4 });
    const labelSet = await prisma.labelSet.findUniqueOrThrow({ where: { id: imported.labelSetId } });
    expect(labelSet.name).toBe(DEMO_LABEL_SET);

    // Two judge setups as the demo runs them (what the stub answers does not matter here, only that runs exist).
    const first = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      endpointName: "stub a",
      scores: (v) => scores(v === 0 ? 8 : 1, 0, 0),
      outcome: (v) => ({ verdict: v === 0, overall: 70 }),
    });
    const second = await seedFinishedRun(prisma, owner, projectId, videoIds, {
      endpointName: "stub b",
      scores: (v) => scores(v < 3 ? 6 : 0, 0, 0),
      outcome: (v) => ({ verdict: v < 3, overall: 70 }),
    });

    const table = await calibrationReport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), {
      labelSetId: imported.labelSetId,
      runId: first.runId,
      iterations: 100,
    });
    expect(table.videos).toBe(CLIPS.length);
    const overall = table.table.groups.find((g) => g.model === null)!;
    const verdict = overall.cells.verdict!.counts;
    // Two clips labelled hallucinating, two not: every rate of the table is defined.
    expect(verdict.tp + verdict.fn).toBe(2);
    expect(verdict.fp + verdict.tn).toBe(2);
    expect(overall.cells.verdict!.values.accuracy).not.toBeNull();
    expect(overall.cells.s1!.counts.tp + overall.cells.s1!.counts.fn).toBe(2);

    const comparison = await compareSetupsReport(prisma, await projectAccess(prisma, owner, projectId, "export.read"), {
      runIds: [first.runId, second.runId],
      reference: "label_set",
      labelSetId: imported.labelSetId,
      iterations: 100,
      seed: 1,
    });
    expect(comparison.comparison.videoIds).toHaveLength(CLIPS.length);
    expect(comparison.comparison.runs.map((r) => r.kappa)).not.toContain(null);
  });
});
