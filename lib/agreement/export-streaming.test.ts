import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { seedLargeProject } from "../../scripts/lib/seed-large-project";
import { videoFilterSchema } from "../videos/video-filter";
import { EXPORT_CHUNK_CHARS, projectExport } from "./export";
import { exportBatches, exportReviewers } from "./export-rows";
import { exportQuerySchema, resolveReportFilter } from "./report-filter";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

/*
 * Issue 23, item 13: the export held what it streamed. It built every row of a 250-video batch (~15,000 rows)
 * and their whole text before handing over one chunk, so a batch's objects lived long enough to pile up in
 * V8's old space (peak RSS +279 MiB on 1M rows). Now it holds one (run, video)'s rows at a time and hands
 * over chunks of about 64 KiB, each read when the consumer pulls. (Memory itself is measured by
 * `npm run bench:dashboard`; these check the structure that keeps it flat.)
 *
 * Fixture: 200 videos, 12,000 judge scores (scripts/lib/seed-large-project.ts: 2–4 key frames per video, so at
 * most 4 × (10 static + 9 dynamic) + 1 = 77 scores, plus the verdict and the overall: ≤ 79 rows per video).
 */
let owner: Actor;
let projectId: string;

beforeAll(async () => {
  const seeded = await seedLargeProject(prisma, { videos: 200, scores: 12_000, reviewers: 2 });
  projectId = seeded.projectId;
  const user = await prisma.user.findUniqueOrThrow({ where: { id: seeded.ownerId } });
  owner = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
}, 120_000);

describe("the streamed export", () => {
  it("builds the rows of one (run, video) at a time, never a batch of them", async () => {
    const scope = await resolveReportFilter(
      prisma,
      projectId,
      videoFilterSchema(builtInCatalogue()).parse({}),
      owner.userId,
    );
    const reviewers = await exportReviewers(prisma, scope);
    let rows = 0;
    let largest = 0;
    for await (const group of exportBatches(prisma, scope, reviewers)) {
      rows += group.length;
      largest = Math.max(largest, group.length);
      expect(new Set(group.map((r) => `${r.runId}:${r.videoId}`)).size).toBeLessThanOrEqual(1);
    }
    expect(rows).toBeGreaterThan(10_000);
    expect(largest).toBeLessThanOrEqual(79);
  });

  it("hands over chunks of about 64 KiB as the consumer pulls, not a batch's whole text", async () => {
    const { stream } = await projectExport(
      prisma,
      await projectAccess(prisma, owner, projectId, "export.read"),
      exportQuerySchema(builtInCatalogue()).parse({ format: "csv" }),
    );
    const reader = stream.getReader();
    const sizes: number[] = [];
    let lines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      sizes.push(value.length);
      for (const byte of value) if (byte === 0x0a) lines++;
    }
    expect(lines).toBeGreaterThan(10_000);
    // ~3.5 MB of CSV in chunks: one chunk is at most 64 KiB plus the rows of one video (each well under 1 KiB).
    expect(sizes.length).toBeGreaterThan(20);
    expect(Math.max(...sizes)).toBeLessThan(EXPORT_CHUNK_CHARS + 80 * 1024);
  });
});
