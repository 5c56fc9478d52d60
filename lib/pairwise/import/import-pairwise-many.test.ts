/**
 * Issue 66's bad input "1,000,000 rows": generated CSV votes go through the dry run as a stream, counted exactly, with
 * memory bounded (the file is never whole in memory). The test reads 100,000 rows; `npm run bench:pairwise-import`
 * reads the million and prints its time and memory.
 */
import { beforeAll, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { generatedVoteCsv, sampledRss } from "../../../testkit/pairwise/generated-votes";
import { importPairwise } from "./import-pairwise";
import { pairImportOptionsSchema } from "./import.types";

const ROWS = 100_000;
const PAIRS = 5_000;
const REFUSED_EVERY = 10_000;

let owner: Actor;
let projectId: string;

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "Many votes" })).id;
});

it("counts 100,000 streamed CSV rows in a dry run, memory bounded, nothing written", async () => {
  global.gc?.();
  const { file, peakGrowthMiB } = sampledRss(
    generatedVoteCsv({ rows: ROWS, pairs: PAIRS, refusedEvery: REFUSED_EVERY }),
  );
  const answer = await importPairwise(prisma, await projectAccess(prisma, owner, projectId, "pairs.manage"), {
    options: pairImportOptionsSchema.parse({ format: "csv", name: "many" }),
    file,
    fileName: "many.csv",
  });
  expect(answer).toMatchObject({
    dryRun: true,
    rows: ROWS,
    votes: ROWS - ROWS / REFUSED_EVERY,
    pairs: PAIRS,
    refusedCount: ROWS / REFUSED_EVERY,
    refusedByReason: { unknown_verdict: ROWS / REFUSED_EVERY },
  });
  expect(answer.raters).toHaveLength(ROWS / PAIRS);
  // Read whole, the rows as objects would take some 200 MiB; the dry run keeps counts and 8-byte vote keys, and the
  // rest is garbage the collector has not yet taken (the benchmark's million rows peak near 160 MiB).
  expect(peakGrowthMiB()).toBeLessThan(128);
  expect(await prisma.pairSet.count({ where: { projectId } })).toBe(0);
}, 60_000);

it("writes a file of several batches in one go: every vote, each pair once, positions 0…n-1", async () => {
  const rows = 12_000;
  const pairs = 4_000;
  const answer = await importPairwise(prisma, await projectAccess(prisma, owner, projectId, "pairs.manage"), {
    options: pairImportOptionsSchema.parse({ format: "csv", name: "batches", dryRun: false }),
    file: generatedVoteCsv({ rows, pairs, refusedEvery: 5_000 }),
    fileName: "batches.csv",
  });
  expect(answer).toMatchObject({ dryRun: false, rows, imported: rows - 3, pairs, refusedCount: 3 });
  const set = await prisma.pairSet.findUniqueOrThrow({ where: { id: answer.pairSetId! } });
  expect(set.pairCount).toBe(pairs);
  const positions = await prisma.pair.aggregate({
    where: { pairSetId: set.id },
    _min: { position: true },
    _max: { position: true },
    _count: true,
  });
  expect(positions).toMatchObject({ _min: { position: 0 }, _max: { position: pairs - 1 }, _count: pairs });
  expect(await prisma.pairVerdict.count({ where: { pairSetId: set.id } })).toBe(rows - 3);
}, 120_000);

it("writes nothing when the file breaks off after some batches were written (the upload dropped)", async () => {
  async function* brokenOff() {
    yield* generatedVoteCsv({ rows: 11_000, pairs: 11_000, refusedEvery: 1_000_000 });
    throw new Error("the client went away");
  }
  const pairsBefore = await prisma.pair.count({ where: { projectId } });
  await expect(
    importPairwise(prisma, await projectAccess(prisma, owner, projectId, "pairs.manage"), {
      options: pairImportOptionsSchema.parse({ format: "csv", name: "broken off", dryRun: false }),
      file: brokenOff(),
      fileName: "broken.csv",
    }),
  ).rejects.toThrow("the client went away");
  expect(await prisma.pairSet.count({ where: { projectId, name: "broken off" } })).toBe(0);
  expect(await prisma.labelSet.count({ where: { projectId, name: "broken off" } })).toBe(0);
  expect(await prisma.pair.count({ where: { projectId } })).toBe(pairsBefore);
}, 120_000);
