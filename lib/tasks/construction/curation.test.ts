import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";
import { addMember } from "@/lib/projects/projects";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { CANDIDATE_ITEM_KIND, type CuratedFields, curationOutcome, curatorAgreement, saveCuration } from "./curation";
import { projectAccess } from "../../authz/permissions";

const fieldsOf = (payload: Prisma.JsonValue) => payload as unknown as CuratedFields;
const MC: CuratedFields = {
  question: "What follows the cleaning?",
  options: { A: "Drying.", B: "Tissue with water.", C: "Brushing.", D: "Cutting.", E: "Waiting." },
  answer: "B",
  category: "Future Step Prediction",
};

let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

async function candidate() {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
  const set = await prisma.itemSet.create({
    data: {
      projectId,
      kind: "qa_candidates",
      name: "candidates",
      fileName: "-",
      sha256: "-",
      itemCount: 1,
      importedById: owner.userId,
    },
  });
  const item = await prisma.item.create({
    data: {
      projectId,
      setId: set.id,
      videoId: videoIds[0]!,
      externalId: "c1",
      kind: CANDIDATE_ITEM_KIND,
      group: "",
      payload: MC as never,
    },
  });
  return { projectId, itemId: item.id };
}

async function member(projectId: string, role: "reviewer" | "viewer") {
  const user = await makeUser();
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: user.email,
    role,
  });
  return user;
}

describe("saveCuration", () => {
  it("accepts with edits, changes its mind with the version it saw, and keeps every version in the history", async () => {
    const { projectId, itemId } = await candidate();
    const curator = await member(projectId, "reviewer");
    const first = await saveCuration(
      prisma,
      await projectAccess(prisma, curator, projectId, "scores.review"),
      { itemId, decision: "accept", edits: { question: "What comes after the face is cleaned?" } },
      fieldsOf,
    );
    expect(first).toMatchObject({
      version: 1,
      decision: "accept",
      edits: { question: "What comes after the face is cleaned?" },
    });
    const second = await saveCuration(
      prisma,
      await projectAccess(prisma, curator, projectId, "scores.review"),
      { itemId, decision: "reject", reason: "answerable from the options", expectedVersion: 1 },
      fieldsOf,
    );
    expect(second).toMatchObject({ version: 2, decision: "reject", edits: {}, reason: "answerable from the options" });
    const history = await prisma.curationDecisionHistory.findMany({
      where: { decisionId: first.id },
      orderBy: { version: "asc" },
    });
    expect(history.map((h) => [h.version, h.before, h.after])).toEqual([
      [1, null, { decision: "accept", edits: { question: "What comes after the face is cleaned?" }, reason: null }],
      [
        2,
        { decision: "accept", edits: { question: "What comes after the face is cleaned?" }, reason: null },
        { decision: "reject", edits: {}, reason: "answerable from the options" },
      ],
    ]);
  });

  it("gives a stale or missing version a 409 and overwrites nothing; of two first saves racing, one wins", async () => {
    const { projectId, itemId } = await candidate();
    const curator = await member(projectId, "reviewer");
    const raced = await Promise.allSettled([
      saveCuration(
        prisma,
        await projectAccess(prisma, curator, projectId, "scores.review"),
        { itemId, decision: "accept" },
        fieldsOf,
      ),
      saveCuration(
        prisma,
        await projectAccess(prisma, curator, projectId, "scores.review"),
        { itemId, decision: "reject", reason: "vague" },
        fieldsOf,
      ),
    ]);
    expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(raced.find((r) => r.status === "rejected")).toMatchObject({ reason: { status: 409 } });
    const stored = await prisma.curationDecision.findFirstOrThrow({ where: { itemId } });
    await expect(
      saveCuration(
        prisma,
        await projectAccess(prisma, curator, projectId, "scores.review"),
        { itemId, decision: "accept", edits: { answer: "A" } },
        fieldsOf,
      ),
    ).rejects.toMatchObject({ status: 409, message: /send expectedVersion 1/ });
    // Two tabs saw version 1; the first save wins, the second is refused.
    await saveCuration(
      prisma,
      await projectAccess(prisma, curator, projectId, "scores.review"),
      { itemId, decision: "accept", expectedVersion: 1 },
      fieldsOf,
    );
    await expect(
      saveCuration(
        prisma,
        await projectAccess(prisma, curator, projectId, "scores.review"),
        { itemId, decision: "reject", reason: "x", expectedVersion: 1 },
        fieldsOf,
      ),
    ).rejects.toMatchObject({
      status: 409,
      details: { current: { version: 2, decision: "accept" } },
    });
    expect((await prisma.curationDecision.findUniqueOrThrow({ where: { id: stored.id } })).version).toBe(2);

    // Another curator's decision on the same question is their own row: no conflict.
    const other = await member(projectId, "reviewer");
    expect(
      await saveCuration(
        prisma,
        await projectAccess(prisma, other, projectId, "scores.review"),
        { itemId, decision: "reject", reason: "tricky" },
        fieldsOf,
      ),
    ).toMatchObject({ version: 1 });
  });

  it("refuses a rejection without a reason, an edit whose answer is no option, a viewer and an outsider", async () => {
    const { projectId, itemId } = await candidate();
    const curator = await member(projectId, "reviewer");
    await expect(
      saveCuration(
        prisma,
        await projectAccess(prisma, curator, projectId, "scores.review"),
        { itemId, decision: "reject" },
        fieldsOf,
      ),
    ).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      saveCuration(
        prisma,
        await projectAccess(prisma, curator, projectId, "scores.review"),
        { itemId, decision: "accept", edits: { answer: "F" } },
        fieldsOf,
      ),
    ).rejects.toMatchObject({ status: 400, message: /not one of the options' letters/ });
    await expect(
      saveCuration(
        prisma,
        await projectAccess(prisma, curator, projectId, "scores.review"),
        { itemId, decision: "accept", edits: { options: { A: "a", C: "c" }, answer: "A" } },
        fieldsOf,
      ),
    ).rejects.toMatchObject({
      status: 400,
      message: /lettered from A with no gap/,
    });
    await expect(
      projectAccess(prisma, await member(projectId, "viewer"), projectId, "scores.review"),
    ).rejects.toMatchObject({ status: 403 });
    await expect(projectAccess(prisma, await makeUser(), projectId, "scores.review")).rejects.toMatchObject({
      status: 404,
    });
    expect(await prisma.curationDecision.count({ where: { itemId } })).toBe(0);
  });
});

describe("curation outcome and agreement", () => {
  const at = (s: number) => new Date(1_700_000_000_000 + s * 1000);
  it("needs N decisions, takes the majority, calls a tie disputed, and uses the latest acceptance's edits", () => {
    const accept = (curatorId: string, s: number, edits = {}) => ({
      curatorId,
      decision: "accept" as const,
      edits,
      updatedAt: at(s),
    });
    const reject = (curatorId: string, s: number) => ({
      curatorId,
      decision: "reject" as const,
      edits: {},
      updatedAt: at(s),
    });
    expect(curationOutcome(MC, [accept("a", 1)], 2)).toEqual({ status: "pending", question: null });
    expect(curationOutcome(MC, [accept("a", 1), reject("b", 2)], 2)).toEqual({ status: "disputed", question: null });
    expect(curationOutcome(MC, [reject("a", 1), reject("b", 2), accept("c", 3)], 3)).toEqual({
      status: "rejected",
      question: null,
    });
    const accepted = curationOutcome(
      MC,
      [accept("a", 5, { answer: "C" }), accept("b", 9, { question: "Edited?" }), reject("c", 1)],
      3,
    );
    expect(accepted).toEqual({ status: "accepted", question: { ...MC, question: "Edited?" } });
  });

  it("measures agreement among curators (worked by hand: 3 of 4 agree, Cohen's κ 0.5)", () => {
    const rows = [
      ["q1", "accept", "accept"],
      ["q2", "accept", "reject"],
      ["q3", "reject", "reject"],
      ["q4", "accept", "accept"],
    ].flatMap(([itemId, a, b]) => [
      { itemId: itemId!, curatorId: "c1", decision: a as "accept" | "reject" },
      { itemId: itemId!, curatorId: "c2", decision: b as "accept" | "reject" },
    ]);
    const agreement = curatorAgreement(rows);
    expect(agreement).toMatchObject({ items: 4, curators: 2, percentAgreement: 0.75 });
    expect(agreement.cohenKappa).toBeCloseTo(0.5, 10);
  });
});
