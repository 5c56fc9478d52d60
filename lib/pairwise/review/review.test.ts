/**
 * Issue 66 §2: reviewing pairs side by side. Claims are race-safe and keep the side drawn for the reviewer; a blind
 * set sends no generator; saves check the claim, the aspect, the strength and the version, keep history, and a
 * submit counts once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { seedReviewPairs } from "../../../testkit/pairwise/review-pairs";
import { getPairForReview, nextPair, releasePair } from "./next-pair";
import { savePairVerdicts } from "./save-verdicts";

let owner: Actor;
let ann: Actor;
let bob: Actor;
let projectId: string;

beforeAll(async () => {
  [owner, ann, bob] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  projectId = (await createProject(prisma, owner, { name: `Pair review ${Date.now()}` })).id;
  for (const actor of [ann, bob])
    await prisma.projectMember.create({ data: { projectId, userId: actor.userId, role: "reviewer" } });
});

const reviewer = (actor: Actor) => projectAccess(prisma, actor, projectId, "scores.review");

describe("claiming pairs", () => {
  it("gives two reviewers racing for one pair set different pairs, and each the same pair again on reload", async () => {
    const { set, pairs } = await seedReviewPairs(prisma, owner, projectId, { pairs: 2 });
    const [first, second] = await Promise.all([
      nextPair(prisma, await reviewer(ann), set.id),
      nextPair(prisma, await reviewer(bob), set.id),
    ]);
    const claimed = [first.pair!.pairId, second.pair!.pairId].sort();
    expect(claimed).toEqual(pairs.map((pair) => pair.id).sort());
    const again = await nextPair(prisma, await reviewer(ann), set.id);
    expect(again.pair!.pairId).toBe(first.pair!.pairId);
    expect(again.pair!.aShownOn).toBe(first.pair!.aShownOn);
    const rows = await prisma.pairAssignment.findMany({ where: { pairSetId: set.id } });
    expect(rows).toHaveLength(2);
  });

  it("draws the side of A per reviewer at the claim (both sides occur) and stores it", async () => {
    const { set } = await seedReviewPairs(prisma, owner, projectId, { pairs: 24 });
    const sides = new Set<string>();
    const access = await reviewer(ann);
    for (let i = 0; i < 24; i++) {
      const { pair } = await nextPair(prisma, access, set.id);
      const stored = await prisma.pairAssignment.findUniqueOrThrow({
        where: { pairId_reviewerId: { pairId: pair!.pairId, reviewerId: ann.userId } },
      });
      expect(stored.aShownOn).toBe(pair!.aShownOn);
      sides.add(pair!.aShownOn);
      await releaseByDone(set.id, pair!.pairId, ann);
    }
    expect([...sides].sort()).toEqual(["left", "right"]);
  });

  it("refuses an archived set (400) and a set assigned to others (403), and answers null when nothing is left", async () => {
    const archived = await seedReviewPairs(prisma, owner, projectId, { pairs: 1 });
    await prisma.pairSet.update({ where: { id: archived.set.id }, data: { archivedAt: new Date() } });
    await expect(nextPair(prisma, await reviewer(ann), archived.set.id)).rejects.toMatchObject({ status: 400 });
    const assigned = await seedReviewPairs(prisma, owner, projectId, { pairs: 1, assigneeIds: [bob.userId] });
    await expect(nextPair(prisma, await reviewer(ann), assigned.set.id)).rejects.toMatchObject({ status: 403 });
    const one = await nextPair(prisma, await reviewer(bob), assigned.set.id);
    await submitAll(assigned.set.id, one.pair!.pairId, bob);
    const none = await nextPair(prisma, await reviewer(bob), assigned.set.id);
    expect(none).toEqual({ pair: null, progress: { done: 1, total: 1 } });
  });

  it("releases an open claim so another reviewer gets the pair", async () => {
    const { set } = await seedReviewPairs(prisma, owner, projectId, { pairs: 1 });
    const mine = await nextPair(prisma, await reviewer(ann), set.id);
    expect((await nextPair(prisma, await reviewer(bob), set.id)).pair).toBeNull();
    expect(await releasePair(prisma, await reviewer(ann), set.id, mine.pair!.pairId)).toEqual({ released: true });
    expect((await nextPair(prisma, await reviewer(bob), set.id)).pair!.pairId).toBe(mine.pair!.pairId);
  });
});

describe("blind sets", () => {
  it("send no generator or file name to the reviewer; an open set sends them", async () => {
    const blind = await seedReviewPairs(prisma, owner, projectId, { pairs: 1, blind: true });
    const json = JSON.stringify(await nextPair(prisma, await reviewer(ann), blind.set.id));
    expect(json).not.toContain("GenAlpha");
    expect(json).not.toContain("GenBeta");
    const open = await seedReviewPairs(prisma, owner, projectId, { pairs: 1, blind: false });
    const { pair } = await nextPair(prisma, await reviewer(bob), open.set.id);
    expect([pair!.a.generator, pair!.b.generator]).toEqual(["GenAlpha", "GenBeta"]);
  });

  it("draw a honeypot's video B from video A's file with its rendering, without naming it a honeypot", async () => {
    const { set, pairs } = await seedReviewPairs(prisma, owner, projectId, {
      pairs: 1,
      honeypots: [{ kind: "frozen" }],
    });
    const { pair } = await nextPair(prisma, await reviewer(ann), set.id);
    expect(pair!.b).toMatchObject({ videoId: pairs[0]!.videoAId, rendering: "frozen" });
    expect(JSON.stringify(pair)).not.toContain("honeypot");
  });
});

describe("saving verdicts", () => {
  it("refuses a pair the reviewer does not hold (409) and keeps nothing", async () => {
    const { set, pairs } = await seedReviewPairs(prisma, owner, projectId, { pairs: 2 });
    await nextPair(prisma, await reviewer(ann), set.id);
    const save = savePairVerdicts(prisma, await reviewer(ann), set.id, {
      pairId: pairs[1]!.id,
      verdicts: [{ aspect: "overall", verdict: "A" }],
    });
    await expect(save).rejects.toMatchObject({ status: 409, code: "not_held" });
    expect(await prisma.pairVerdict.count({ where: { pairId: pairs[1]!.id } })).toBe(0);
  });

  it("answers 400 for an unknown aspect, an unknown verdict, or a strong preference on four levels", async () => {
    const { set } = await seedReviewPairs(prisma, owner, projectId, { pairs: 1 });
    const { pair } = await nextPair(prisma, await reviewer(ann), set.id);
    const access = await reviewer(ann);
    const attempts = [
      [{ aspect: "smell", verdict: "A" }],
      [{ aspect: "__proto__", verdict: "A" }],
      [{ aspect: "overall", verdict: "A", strength: 2 }],
    ];
    for (const verdicts of attempts) {
      await expect(
        savePairVerdicts(prisma, access, set.id, { pairId: pair!.pairId, verdicts } as never),
      ).rejects.toMatchObject({ status: 400 });
    }
    // An unknown verdict fails the request's schema (the route answers 400 for a ZodError).
    await expect(
      savePairVerdicts(prisma, access, set.id, {
        pairId: pair!.pairId,
        verdicts: [{ aspect: "overall", verdict: "C" }],
      } as never),
    ).rejects.toMatchObject({ name: "ZodError" });
    expect(await prisma.pairVerdict.count({ where: { pairId: pair!.pairId } })).toBe(0);
  });

  it("accepts strength 2 on a five-level aspect, refuses a stale version with 409, and keeps history", async () => {
    const aspects = [{ id: "overall", label: "Overall", guideline: "", levels: 5 as const }];
    const { set } = await seedReviewPairs(prisma, owner, projectId, { pairs: 1, aspects });
    const access = await reviewer(ann);
    const { pair } = await nextPair(prisma, access, set.id);
    const pairId = pair!.pairId;
    const first = await savePairVerdicts(prisma, access, set.id, {
      pairId,
      verdicts: [{ aspect: "overall", verdict: "A", strength: 2 }],
      msToVerdict: 1200,
    });
    expect(first.verdicts[0]).toMatchObject({ verdict: "A", strength: 2, version: 1 });
    const second = await savePairVerdicts(prisma, access, set.id, {
      pairId,
      verdicts: [{ aspect: "overall", verdict: "B", version: 1 }],
    });
    expect(second.verdicts[0]).toMatchObject({ verdict: "B", strength: 1, version: 2 });
    await expect(
      savePairVerdicts(prisma, access, set.id, { pairId, verdicts: [{ aspect: "overall", verdict: "A", version: 1 }] }),
    ).rejects.toMatchObject({ status: 409, details: { version: 2 } });
    const withdrawn = await savePairVerdicts(prisma, access, set.id, {
      pairId,
      verdicts: [{ aspect: "overall", verdict: null, version: 2 }],
    });
    expect(withdrawn.verdicts[0]).toMatchObject({ verdict: "B", withdrawn: true, version: 3 });
    const row = await prisma.pairVerdict.findFirstOrThrow({ where: { pairId }, include: { history: true } });
    expect(row).toMatchObject({ aShownOn: pair!.aShownOn, msToVerdict: 1200, raterKind: "reviewer" });
    expect(row.history.map((h) => h.version).sort()).toEqual([1, 2, 3]);
    // Saving the same verdict again writes no history.
    await savePairVerdicts(prisma, access, set.id, { pairId, verdicts: [{ aspect: "overall", verdict: null }] });
    expect(await prisma.pairVerdictHistory.count({ where: { verdictId: row.id } })).toBe(3);
  });

  it("submits only with every aspect given, and two submits count the pair done once", async () => {
    const { set } = await seedReviewPairs(prisma, owner, projectId, { pairs: 1 });
    const access = await reviewer(ann);
    const { pair } = await nextPair(prisma, access, set.id);
    const pairId = pair!.pairId;
    await expect(
      savePairVerdicts(prisma, access, set.id, {
        pairId,
        verdicts: [{ aspect: "overall", verdict: "A" }],
        submit: true,
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(await prisma.pairVerdict.count({ where: { pairId } })).toBe(0);
    const both = [
      { aspect: "overall", verdict: "A" as const },
      { aspect: "text_alignment", verdict: "tie_bad" as const },
    ];
    const [one, two] = await Promise.all([
      savePairVerdicts(prisma, access, set.id, { pairId, verdicts: both, submit: true }),
      savePairVerdicts(prisma, access, set.id, { pairId, verdicts: both, submit: true }),
    ]);
    expect([one.status, two.status]).toEqual(["done", "done"]);
    expect((await prisma.pair.findUniqueOrThrow({ where: { id: pairId } })).doneCount).toBe(1);
    expect(two.progress).toEqual({ done: 1, total: 1 });
    // The done pair is still the reviewer's to show and edit.
    const shown = await getPairForReview(prisma, access, set.id, pairId);
    expect(shown.status).toBe("done");
    expect(shown.verdicts.map((v) => v.verdict)).toEqual(["A", "tie_bad"]);
  });
});

async function submitAll(pairSetId: string, pairId: string, actor: Actor) {
  await savePairVerdicts(prisma, await reviewer(actor), pairSetId, {
    pairId,
    verdicts: [
      { aspect: "overall", verdict: "A" },
      { aspect: "text_alignment", verdict: "B" },
    ],
    submit: true,
  });
}

async function releaseByDone(pairSetId: string, pairId: string, actor: Actor) {
  await submitAll(pairSetId, pairId, actor);
}
