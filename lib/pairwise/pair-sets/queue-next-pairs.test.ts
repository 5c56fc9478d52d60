/** Issue 66 §6: "create a queue of the next N": a pair set of the named pairs, with the set's settings. */
import { beforeAll, describe, expect, it } from "vitest";
import { projectAccess, type ProjectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { pairSetProject } from "../../../testkit/testing/pair-set-fixtures";
import { createPairSet } from "./create-pair-set";
import { createPairSetSchema } from "./create-pair-set.types";
import { queueNextPairs } from "./queue-next-pairs";

let project: Awaited<ReturnType<typeof pairSetProject>>;
let owner: ProjectAccess<"pairs.manage">;

beforeAll(async () => {
  project = await pairSetProject();
  owner = await projectAccess(prisma, project.owner, project.projectId, "pairs.manage");
});

const make = (name: string, extra: Record<string, unknown> = {}) =>
  createPairSet(prisma, owner, createPairSetSchema.parse({ name, design: "all_pairs", ...extra }));

describe("queueNextPairs", () => {
  it("makes a set of exactly the named pairs, keeping the set's aspects, reviewers per pair and blindness", async () => {
    const source = await make("source", { reviewersPerPair: 2, blind: true, guidelines: "Look closely." });
    const pairs = await prisma.pair.findMany({ where: { pairSetId: source.pairSet.id }, orderBy: { position: "asc" } });
    const chosen = [pairs[3]!, pairs[0]!];
    const answer = await queueNextPairs(prisma, owner, source.pairSet.id, { pairIds: chosen.map((p) => p.id) });
    expect(answer.pairs).toBe(2);
    const made = await prisma.pairSet.findUniqueOrThrow({ where: { id: answer.pairSet.id }, include: { pairs: true } });
    expect(made).toMatchObject({ reviewersPerPair: 2, blind: true, guidelines: "Look closely." });
    expect(made.aspects).toEqual(
      (await prisma.pairSet.findUniqueOrThrow({ where: { id: source.pairSet.id } })).aspects,
    );
    expect(new Set(made.pairs.map((p) => `${p.videoAId}:${p.videoBId}`))).toEqual(
      new Set(chosen.map((p) => `${p.videoAId}:${p.videoBId}`)),
    );
  });

  it("refuses a pair of another set and a pair whose video was deleted, naming them, and makes nothing", async () => {
    const source = await make("source 2");
    const other = await make("other");
    const foreign = await prisma.pair.findFirstOrThrow({ where: { pairSetId: other.pairSet.id } });
    await expect(queueNextPairs(prisma, owner, source.pairSet.id, { pairIds: [foreign.id] })).rejects.toThrow(
      `Not pairs of this set: ${foreign.id}`,
    );
    const own = await prisma.pair.findFirstOrThrow({ where: { pairSetId: source.pairSet.id } });
    await prisma.pair.update({ where: { id: own.id }, data: { videoBId: null } });
    await expect(queueNextPairs(prisma, owner, source.pairSet.id, { pairIds: [own.id] })).rejects.toThrow(
      "cannot be queued again",
    );
    expect(await prisma.pairSet.count({ where: { projectId: project.projectId, name: { contains: "· next" } } })).toBe(
      1,
    );
  });
});
