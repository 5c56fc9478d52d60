/**
 * Issue 66 §1: pair sets listed, read with their counts, archived and deleted; pages of pairs with their videos as
 * they are now; a video deleted after its pair was made (the pair and its verdicts stay); the project's deletion.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { projectAccess, type ProjectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { Prisma } from "../../generated/prisma/client";
import { getStorage } from "../../storage/storage";
import { deleteVideo } from "../../videos/delete-videos";
import { deleteProject, executeProjectDeletion } from "../../projects/project-deletion";
import { pairSetProject } from "../../../testkit/testing/pair-set-fixtures";
import { storeVerdicts } from "../../../testkit/testing/pair-verdict-rows";
import { createPairSet } from "./create-pair-set";
import { createPairSetSchema } from "./create-pair-set.types";
import { deletePairSet, getPairSet, listPairSets, listPairs, updatePairSet } from "./pair-sets";
import { listPairsQuerySchema, updatePairSetSchema } from "./pair-sets.types";

let project: Awaited<ReturnType<typeof pairSetProject>>;
let owner: ProjectAccess<"pairs.manage">;
let viewer: ProjectAccess<"project.view">;
let reviewer: ProjectAccess<"project.view">;
let setId: string;

beforeAll(async () => {
  project = await pairSetProject();
  owner = await projectAccess(prisma, project.owner, project.projectId, "pairs.manage");
  viewer = await projectAccess(prisma, project.viewer, project.projectId, "project.view");
  reviewer = await projectAccess(prisma, project.reviewer, project.projectId, "project.view");
  const made = await createPairSet(
    prisma,
    owner,
    createPairSetSchema.parse({ name: "main", reviewersPerPair: 2, honeypots: { count: 2 } }),
  );
  setId = made.pairSet.id;
});

describe("reading sets", () => {
  it("gets a set with its counts: pairs, honeypots, done pairs, prompts, generators, verdicts per aspect", async () => {
    const pairs = await prisma.pair.findMany({ where: { pairSetId: setId }, orderBy: { position: "asc" } });
    await prisma.pair.updateMany({ where: { id: { in: pairs.slice(0, 3).map((p) => p.id) } }, data: { doneCount: 2 } });
    await prisma.pair.update({ where: { id: pairs[3]!.id }, data: { doneCount: 1 } });
    await storeVerdicts([
      { pairId: pairs[0]!.id, aspect: "overall", raterId: project.reviewer.userId, verdict: "A" },
      { pairId: pairs[0]!.id, aspect: "overall", raterId: "run:x", raterKind: "judge", verdict: "B" },
      { pairId: pairs[1]!.id, aspect: "physics", raterId: project.reviewer.userId, verdict: "tie_bad" },
      { pairId: pairs[1]!.id, aspect: "overall", raterId: project.owner.userId, verdict: "A", withdrawn: true },
    ]);
    const detail = await getPairSet(prisma, viewer, setId);
    expect(detail.counts).toMatchObject({
      pairs: 20,
      honeypots: 2,
      donePairs: 3,
      prompts: 3,
      generators: 4,
      judgeRuns: 0,
    });
    expect(detail.counts.verdictsPerAspect).toEqual([
      { aspect: "overall", verdicts: 2, byKind: { reviewer: 1, judge: 1, label_set: 0, gold: 0 } },
      { aspect: "text_alignment", verdicts: 0, byKind: { reviewer: 0, judge: 0, label_set: 0, gold: 0 } },
      { aspect: "physics", verdicts: 1, byKind: { reviewer: 1, judge: 0, label_set: 0, gold: 0 } },
      { aspect: "visual_quality", verdicts: 0, byKind: { reviewer: 0, judge: 0, label_set: 0, gold: 0 } },
    ]);
    expect(detail).toMatchObject({ name: "main", blind: true, reviewersPerPair: 2, pairCount: 20 });
  });

  it("pages pairs in position order; a blind set hides generators and names from reviewers, not from viewers", async () => {
    const query = (q: Record<string, unknown>) => listPairsQuerySchema.parse(q);
    const first = await listPairs(prisma, viewer, setId, query({ limit: 8 }));
    expect(first.pairs.map((p) => p.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(first.nextAfter).toBe(7);
    const rest = await listPairs(prisma, viewer, setId, query({ after: 7, limit: 100 }));
    expect(rest.pairs).toHaveLength(12);
    expect(rest.nextAfter).toBeNull();
    expect(first.pairs[0]).toMatchObject({ generatorA: expect.stringMatching(/^gen-/), videoA: { deleted: false } });
    const blind = await listPairs(prisma, reviewer, setId, query({}));
    for (const pair of blind.pairs)
      expect(pair).toMatchObject({ generatorA: null, generatorB: null, nameA: null, videoA: { fileName: "" } });
    expect(listPairsQuerySchema.safeParse({ limit: 501 }).success).toBe(false);
  });

  it("archives (out of the default list) and brings back; deletes (not while a judge run is on it); another project's set is not found", async () => {
    await createPairSet(prisma, owner, createPairSetSchema.parse({ name: "old", design: "round_robin" }));
    const old = (await listPairSets(prisma, viewer)).find((s) => s.name === "old")!;
    expect((await updatePairSet(prisma, owner, old.id, { archived: true })).archivedAt).not.toBeNull();
    expect((await listPairSets(prisma, viewer)).map((s) => s.name)).toEqual(["main"]);
    expect((await listPairSets(prisma, viewer, { archived: "only" })).map((s) => s.name)).toEqual(["old"]);
    expect((await updatePairSet(prisma, owner, old.id, { archived: false })).archivedAt).toBeNull();
    const changed = await updatePairSet(prisma, owner, old.id, {
      name: "older",
      guidelines: "Look at the hands.",
      assigneeIds: [project.reviewer.userId, project.reviewer.userId],
      votesPerPromptCap: 3,
    });
    expect(changed).toMatchObject({
      name: "older",
      guidelines: "Look at the hands.",
      assigneeIds: [project.reviewer.userId],
      votesPerPromptCap: 3,
      archivedAt: null,
    });
    await expect(updatePairSet(prisma, owner, old.id, { assigneeIds: [project.viewer.userId] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("not a reviewer of this project"),
    });
    await expect(updatePairSet(prisma, owner, old.id, { name: "main" })).rejects.toMatchObject({ status: 409 });
    expect(updatePairSetSchema.safeParse({}).success).toBe(false);
    const chosen = await createPairSet(
      prisma,
      owner,
      createPairSetSchema.parse({ name: "chosen", generators: ["gen-a", "gen-b"] }),
    );
    expect((await getPairSet(prisma, viewer, chosen.pairSet.id)).origin).toMatchObject({
      generators: ["gen-a", "gen-b"],
    });
    expect((await getPairSet(prisma, reviewer, chosen.pairSet.id)).origin).not.toHaveProperty("generators");
    await deletePairSet(prisma, owner, chosen.pairSet.id);
    const other = await pairSetProject();
    const stranger = await projectAccess(prisma, other.owner, other.projectId, "pairs.manage");
    await expect(getPairSet(prisma, stranger, old.id)).rejects.toMatchObject({ status: 404 });
    await expect(deletePairSet(prisma, stranger, old.id)).rejects.toMatchObject({ status: 404 });
    const endpoint = await prisma.judgeEndpoint.create({
      data: {
        projectId: project.projectId,
        name: "j",
        baseUrl: "http://127.0.0.1:1/v1",
        model: "m",
        createdById: project.owner.userId,
      },
    });
    const run = await prisma.judgeRun.create({
      data: {
        projectId: project.projectId,
        pipeline: "pairwise",
        endpointId: endpoint.id,
        createdById: project.owner.userId,
        pairSetId: old.id,
        status: "running",
      },
    });
    await expect(deletePairSet(prisma, owner, old.id)).rejects.toMatchObject({ status: 409, code: "run_in_progress" });
    expect(await prisma.pair.count({ where: { pairSetId: old.id } })).toBe(6);
    expect((await getPairSet(prisma, viewer, old.id)).counts.judgeRuns).toBe(1);
    await prisma.judgeRun.update({ where: { id: run.id }, data: { status: "done" } });
    await deletePairSet(prisma, owner, old.id);
    expect(await prisma.judgeRun.count({ where: { id: run.id } })).toBe(0);
    expect(await prisma.pair.count({ where: { pairSetId: old.id } })).toBe(0);
    await expect(getPairSet(prisma, viewer, old.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe("deletions", () => {
  it("a video deleted after its pair was made: the pair stays with its snapshot and verdicts, the side shows deleted", async () => {
    const pair = (await prisma.pair.findFirst({ where: { pairSetId: setId, honeypot: { equals: Prisma.DbNull } } }))!;
    const verdictsBefore = await prisma.pairVerdict.count({ where: { pairId: pair.id } });
    await storeVerdicts([{ pairId: pair.id, aspect: "visual_quality", raterId: project.viewer.userId, verdict: "B" }]);
    const access = await projectAccess(prisma, project.owner, project.projectId, "videos.delete");
    await deleteVideo({ prisma, storage: getStorage() }, access, pair.videoAId!, { dryRun: false });
    const after = (await prisma.pair.findUnique({ where: { id: pair.id } }))!;
    expect(after).toMatchObject({
      videoAId: null,
      videoBId: pair.videoBId,
      generatorA: pair.generatorA,
      prompt: pair.prompt,
      nameA: pair.nameA,
    });
    expect(await prisma.pairVerdict.count({ where: { pairId: pair.id } })).toBe(verdictsBefore + 1);
    const page = await listPairs(prisma, viewer, setId, listPairsQuerySchema.parse({ limit: 500 }));
    expect(page.pairs.find((p) => p.id === pair.id)).toMatchObject({ videoA: { id: null, deleted: true } });
  });

  it("a project's deletion removes its sets, pairs and verdicts", async () => {
    const doomed = await pairSetProject();
    const access = await projectAccess(prisma, doomed.owner, doomed.projectId, "pairs.manage");
    const made = await createPairSet(prisma, access, createPairSetSchema.parse({ name: "doomed" }));
    const pair = (await prisma.pair.findFirst({ where: { pairSetId: made.pairSet.id } }))!;
    await storeVerdicts([{ pairId: pair.id, aspect: "overall", raterId: doomed.owner.userId, verdict: "A" }]);
    const deletion = await deleteProject(
      { prisma, queue: { enqueue: async () => undefined } },
      await projectAccess(prisma, doomed.owner, doomed.projectId, "project.delete"),
      {
        dryRun: false,
        confirmName: (await prisma.project.findUniqueOrThrow({ where: { id: doomed.projectId } })).name,
      },
    );
    await executeProjectDeletion({ prisma, storage: getStorage() }, deletion.deletion!.id);
    expect(await prisma.pairSet.count({ where: { projectId: doomed.projectId } })).toBe(0);
    expect(await prisma.pair.count({ where: { projectId: doomed.projectId } })).toBe(0);
    expect(await prisma.pairVerdict.count({ where: { projectId: doomed.projectId } })).toBe(0);
  });
});
