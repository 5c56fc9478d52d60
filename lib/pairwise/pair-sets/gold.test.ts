/**
 * Issue 66 §2: adjudication to gold verdicts. The gold is the "gold" rater's verdict, saved with a version check and a
 * history naming the adjudicator; the pairs people disagree on are listed for it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { projectAccess, type ProjectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { pairSetProject } from "../../../testkit/testing/pair-set-fixtures";
import { storeVerdicts } from "../../../testkit/testing/pair-verdict-rows";
import { createPairSet } from "./create-pair-set";
import { createPairSetSchema } from "./create-pair-set.types";
import { listDisagreements, pairDisagreements, setGoldVerdict } from "./gold";
import { disagreementsQuerySchema, setGoldVerdictSchema } from "./gold.types";

let project: Awaited<ReturnType<typeof pairSetProject>>;
let adjudicator: ProjectAccess<"gold.set">;
let pairIds: string[];
let setId: string;

const gold = (pairId: string, body: Record<string, unknown>) =>
  setGoldVerdict(prisma, adjudicator, { pairId, ...setGoldVerdictSchema.parse(body) });

beforeAll(async () => {
  project = await pairSetProject();
  const owner = await projectAccess(prisma, project.owner, project.projectId, "pairs.manage");
  adjudicator = await projectAccess(prisma, project.owner, project.projectId, "gold.set");
  const aspects = [
    { id: "overall", label: "Overall" },
    { id: "motion", label: "Motion", levels: 5 },
  ];
  setId = (await createPairSet(prisma, owner, createPairSetSchema.parse({ name: "gold", aspects }))).pairSet.id;
  pairIds = (await prisma.pair.findMany({ where: { pairSetId: setId }, orderBy: { position: "asc" } })).map(
    (p) => p.id,
  );
});

describe("gold verdicts", () => {
  it("sets, then changes with the version, keeping a history by the adjudicator", async () => {
    const first = await gold(pairIds[0]!, { aspect: "overall", verdict: "A", note: "clearer" });
    expect(first).toMatchObject({ verdict: "A", version: 1, note: "clearer", strength: 1 });
    const second = await gold(pairIds[0]!, { aspect: "overall", verdict: "tie_bad", version: 1 });
    expect(second).toMatchObject({ id: first.id, verdict: "tie_bad", version: 2 });
    const row = await prisma.pairVerdict.findUniqueOrThrow({ where: { id: first.id } });
    expect(row).toMatchObject({ raterKind: "gold", raterId: "gold", pairSetId: setId, projectId: project.projectId });
    const history = await prisma.pairVerdictHistory.findMany({
      where: { verdictId: first.id },
      orderBy: { version: "asc" },
    });
    expect(history.map((h) => [h.version, h.changedBy, (h.after as { verdict: string }).verdict])).toEqual([
      [1, project.owner.userId, "A"],
      [2, project.owner.userId, "tie_bad"],
    ]);
    expect(history[0]!.before).toBeNull();
    expect(history[1]!.before).toMatchObject({ verdict: "A", version: 1 });
  });

  it("refuses a stale version and a save without one over an existing gold (409 with the current), losing nothing", async () => {
    await gold(pairIds[1]!, { aspect: "overall", verdict: "B" });
    await gold(pairIds[1]!, { aspect: "overall", verdict: "A", version: 1 });
    await expect(gold(pairIds[1]!, { aspect: "overall", verdict: "tie_good", version: 1 })).rejects.toMatchObject({
      status: 409,
      details: { current: { version: 2, verdict: "A" } },
    });
    await expect(gold(pairIds[1]!, { aspect: "overall", verdict: "tie_good" })).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("send version 2"),
    });
    await expect(gold(pairIds[2]!, { aspect: "overall", verdict: "A", version: 3 })).rejects.toMatchObject({
      status: 404,
    });
    const row = await prisma.pairVerdict.findFirstOrThrow({ where: { pairId: pairIds[1]!, raterId: "gold" } });
    expect(row).toMatchObject({ verdict: "A", version: 2 });
  });

  it("two first saves at once: one sets the gold, the other a 409", async () => {
    const results = await Promise.allSettled([
      gold(pairIds[3]!, { aspect: "overall", verdict: "A" }),
      gold(pairIds[3]!, { aspect: "overall", verdict: "B" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({
      status: 409,
    });
  });

  it("refuses an unknown aspect, `__proto__` as one, a verdict not of the four, and strength where the aspect has four levels", async () => {
    await expect(gold(pairIds[4]!, { aspect: "physics", verdict: "A" })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('unknown aspect "physics"'),
    });
    await expect(gold(pairIds[4]!, { aspect: "__proto__", verdict: "A" })).rejects.toMatchObject({ status: 400 });
    expect(setGoldVerdictSchema.safeParse({ aspect: "overall", verdict: "A>B" }).success).toBe(false);
    await expect(gold(pairIds[4]!, { aspect: "overall", verdict: "A", strength: 2 })).rejects.toMatchObject({
      status: 400,
    });
    await expect(gold(pairIds[4]!, { aspect: "motion", verdict: "tie_good", strength: 2 })).rejects.toMatchObject({
      status: 400,
    });
    expect(await gold(pairIds[4]!, { aspect: "motion", verdict: "B", strength: 2 })).toMatchObject({ strength: 2 });
    await expect(gold("no-such-pair", { aspect: "overall", verdict: "A" })).rejects.toMatchObject({ status: 404 });
  });

  it("a reviewer may not set gold", async () => {
    await expect(projectAccess(prisma, project.reviewer, project.projectId, "gold.set")).rejects.toMatchObject({
      status: 403,
    });
  });
});

describe("disagreements", () => {
  it("lists the pairs people's verdicts differ on, with their verdicts and the gold, paged by position", async () => {
    const [p5, p6, p7, p8] = pairIds.slice(5, 9) as [string, string, string, string];
    const r1 = project.reviewer.userId;
    const r2 = project.viewer.userId;
    await storeVerdicts([
      { pairId: p5, aspect: "overall", raterId: r1, verdict: "A" },
      { pairId: p5, aspect: "overall", raterId: r2, verdict: "B", aShownOn: "right" },
      { pairId: p6, aspect: "overall", raterId: r1, verdict: "A" },
      { pairId: p6, aspect: "overall", raterId: r2, verdict: "A" },
      // A judge differing from people is no people's disagreement; a withdrawn verdict counts nowhere.
      { pairId: p7, aspect: "overall", raterId: r1, verdict: "A" },
      { pairId: p7, aspect: "overall", raterId: "run:j", raterKind: "judge", verdict: "B", aShownOn: null },
      { pairId: p7, aspect: "overall", raterId: r2, verdict: "tie_bad", withdrawn: true },
      { pairId: p8, aspect: "overall", raterId: r1, verdict: "tie_good" },
      { pairId: p8, aspect: "overall", raterId: "labelset:l:ann", raterKind: "label_set", verdict: "tie_bad" },
      { pairId: p8, aspect: "motion", raterId: r2, verdict: "A" },
    ]);
    await gold(p8, { aspect: "overall", verdict: "tie_bad" });
    const query = (q: Record<string, unknown>) => disagreementsQuerySchema.parse({ aspect: "overall", ...q });
    const all = await listDisagreements(prisma, adjudicator, setId, query({}));
    expect(all.disagreements.map((d) => d.pairId)).toEqual([p5, p8]);
    expect(all.nextAfter).toBeNull();
    const verdicts = all.disagreements[0]!.verdicts.map((v) => [v.raterId, v.verdict, v.aShownOn]);
    expect(verdicts).toHaveLength(2);
    expect(verdicts).toEqual(
      expect.arrayContaining([
        [r1, "A", "left"],
        [r2, "B", "right"],
      ]),
    );
    expect(all.disagreements[0]!.gold).toBeNull();
    expect(all.disagreements[1]!.gold).toMatchObject({ verdict: "tie_bad", version: 1 });
    const firstPage = await listDisagreements(prisma, adjudicator, setId, query({ limit: 1 }));
    expect(firstPage.disagreements.map((d) => d.pairId)).toEqual([p5]);
    const next = await listDisagreements(prisma, adjudicator, setId, query({ limit: 1, after: firstPage.nextAfter }));
    expect(next.disagreements.map((d) => d.pairId)).toEqual([p8]);
    await expect(listDisagreements(prisma, adjudicator, setId, query({ aspect: "__proto__" }))).rejects.toMatchObject({
      status: 400,
    });
    // The adjudication page: the first aspect when none is asked, its aspects, and an unknown one refused.
    const page = await pairDisagreements(prisma, adjudicator, setId, {});
    expect(page).toMatchObject({ aspect: "overall", pairSet: { id: setId, name: "gold" } });
    expect(page.aspects.map((a) => a.id)).toEqual(["overall", "motion"]);
    expect(page.disagreements.map((d) => d.pairId)).toEqual([p5, p8]);
    await expect(pairDisagreements(prisma, adjudicator, setId, { aspect: "motion" })).resolves.toMatchObject({
      disagreements: [],
    });
    await expect(pairDisagreements(prisma, adjudicator, setId, { aspect: "nosuch" })).rejects.toMatchObject({
      status: 400,
    });
  });
});
