import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createProject } from "../../projects/projects";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { addMember } from "@/lib/projects/projects";
import { insertCandidateSet, transformedView } from "@/testkit/tasks/construction/candidate-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { loadCandidateViews } from "./candidate-views";
import {
  candidateCuration,
  createCurationQueue,
  curatedFieldsOf,
  curationItem,
  CurationConflictWithCurrentError,
  getCurationQueue,
  inCurationPool,
  listCurationQueues,
  nextCurationItem,
  saveCandidateCuration,
} from "./curation-queues";

let owner: Actor;
beforeAll(async () => {
  owner = await makeUser();
});

const SPECS = [
  {
    externalId: "c1",
    video: 0,
    question: "What happens after the ball is placed at the top?",
    answer: "It rolls down the ramp.",
  },
  { externalId: "c2", video: 0, question: "What is done last?", answer: "The ball is caught at the bottom." },
  { externalId: "c3", video: 1, question: "Where is the ball placed first?", answer: "At the top of the ramp." },
];

async function setup() {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: 2,
    keyFrames: 3,
    name: "Curation",
  });
  const { setId, itemIds } = await insertCandidateSet(prisma, owner, projectId, videoIds, SPECS);
  return { projectId, videoIds, setId, itemIds };
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

describe("creating curation queues", () => {
  it("validates the queue and refuses viewers and reviewers", async () => {
    const { projectId, setId } = await setup();
    const viewer = await member(projectId, "viewer");
    const reviewer = await member(projectId, "reviewer");
    await expect(projectAccess(prisma, viewer, projectId, "queues.manage")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(projectAccess(prisma, reviewer, projectId, "queues.manage")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        candidateSetId: setId,
        name: "Q",
        curatorsPerQuestion: 6,
      }),
    ).rejects.toThrow(/At most 5 curators/);
    await expect(
      createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        candidateSetId: setId,
        name: "Q",
        curatorsPerQuestion: 0,
      }),
    ).rejects.toThrow(/At least 1 curator/);
    await expect(
      createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        candidateSetId: setId,
        name: " ",
      }),
    ).rejects.toThrow(/Give the queue a name/);
    await expect(
      createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        candidateSetId: setId,
        name: "Q",
        scope: "removed" as never,
      }),
    ).rejects.toThrow(/kept.*or.*all/);
    await expect(
      createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        candidateSetId: setId,
        name: "Q",
        assignees: [viewer.email],
      }),
    ).rejects.toThrow(new RegExp(`Not a reviewer or owner of this project: ${viewer.email}`));
    const other = await setup();
    await expect(
      createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
        candidateSetId: other.setId,
        name: "Q",
      }),
    ).rejects.toThrow(/No such candidate set in this project/);

    const queue = await createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      candidateSetId: setId,
      name: "First pass",
      curatorsPerQuestion: 2,
      scope: "all",
      assignees: [reviewer.email],
      guidelines: "Reject **vague** answers.",
    });
    expect(queue).toMatchObject({
      name: "First pass",
      curatorsPerQuestion: 2,
      scope: "all",
      assignees: [{ email: reviewer.email }],
      guidelines: "Reject **vague** answers.",
      progress: { candidates: 3, complete: 0, decisions: 0 },
      counts: { pending: 3, accepted: 0 },
    });
    expect(
      (await listCurationQueues(prisma, await projectAccess(prisma, viewer, projectId, "project.view"))).map(
        (q) => q.id,
      ),
    ).toEqual([queue.id]);
    const stranger = await makeUser();
    await expect(projectAccess(prisma, stranger, projectId, "project.view")).rejects.toBeInstanceOf(NotFoundError);
    // Through an access to another project, even the owner's own, the queue is not found.
    const elsewhere = await createProject(prisma, owner, { name: "Another project" });
    const there = await projectAccess(prisma, owner, elsewhere.id, "project.view");
    await expect(getCurationQueue(prisma, there, queue.id)).rejects.toThrow("No such curation queue.");
  });

  it("holds only the candidates the filters kept by default, and every candidate with scope all", async () => {
    const { projectId, setId } = await setup();
    const views = await loadCandidateViews(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      setId,
    );
    const kept = transformedView(views[0]!, ["It flies.", "It melts.", "It stops at once.", "It rolls up."]);
    expect([inCurationPool(kept, "kept"), inCurationPool(views[1]!, "kept"), inCurationPool(views[1]!, "all")]).toEqual(
      [true, false, true],
    );
    // Without a construct run no candidate is kept yet: a default queue is empty.
    const queue = await createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      candidateSetId: setId,
      name: "Kept only",
    });
    expect(queue.progress.candidates).toBe(0);
    expect(
      await nextCurationItem(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), queue.id),
    ).toEqual({ itemId: null, left: 0 });
  });
});

describe("the next candidate for a curator", () => {
  it("with N = 2 and two curators: each gets every candidate once, a candidate leaves when its two decisions are in", async () => {
    const { projectId, setId, itemIds } = await setup();
    const ann = await member(projectId, "reviewer");
    const bob = await member(projectId, "reviewer");
    const carl = await member(projectId, "reviewer");
    const queue = await createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      candidateSetId: setId,
      name: "Two each",
      curatorsPerQuestion: 2,
      scope: "all",
    });

    expect(
      await nextCurationItem(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), queue.id),
    ).toEqual({ itemId: itemIds.c1, left: 3 });
    expect(
      (
        await nextCurationItem(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), queue.id, {
          skip: [itemIds.c1!],
        })
      ).itemId,
    ).toBe(itemIds.c2);
    await saveCandidateCuration(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), itemIds.c1!, {
      decision: "accept",
    });
    // Ann moves on; Bob still gets c1, which has one decision of two.
    expect(
      await nextCurationItem(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), queue.id),
    ).toEqual({ itemId: itemIds.c2, left: 2 });
    expect(
      (await nextCurationItem(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), queue.id)).itemId,
    ).toBe(itemIds.c1);
    await saveCandidateCuration(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), itemIds.c1!, {
      decision: "reject",
      reason: "the answer is in the question",
    });
    // c1 has its two decisions: a third curator never sees it.
    expect(
      (await nextCurationItem(prisma, await projectAccess(prisma, carl, projectId, "scores.review"), queue.id)).itemId,
    ).toBe(itemIds.c2);
    await saveCandidateCuration(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), itemIds.c2!, {
      decision: "accept",
    });
    await saveCandidateCuration(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), itemIds.c2!, {
      decision: "accept",
    });
    await saveCandidateCuration(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), itemIds.c3!, {
      decision: "accept",
    });
    expect(
      await nextCurationItem(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), queue.id),
    ).toEqual({ itemId: null, left: 0 });
    expect(
      await nextCurationItem(prisma, await projectAccess(prisma, bob, projectId, "scores.review"), queue.id),
    ).toEqual({ itemId: itemIds.c3, left: 1 });

    const summary = await getCurationQueue(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      queue.id,
    );
    expect(summary.counts).toEqual({ accepted: 1, rejected: 0, disputed: 1, pending: 1 });
    expect(summary.progress).toMatchObject({ candidates: 3, complete: 2, decisions: 5 });
    expect(summary.agreement).toMatchObject({ items: 3, curators: 2, percentAgreement: 0.5 });
  });

  it("refuses viewers and curators the queue is not assigned to", async () => {
    const { projectId, setId } = await setup();
    const viewer = await member(projectId, "viewer");
    const assigned = await member(projectId, "reviewer");
    const other = await member(projectId, "reviewer");
    const queue = await createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      candidateSetId: setId,
      name: "Assigned",
      scope: "all",
      assignees: [assigned.email],
    });
    await expect(projectAccess(prisma, viewer, projectId, "scores.review")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      nextCurationItem(prisma, await projectAccess(prisma, other, projectId, "scores.review"), queue.id),
    ).rejects.toThrow(/assigned to other curators/);
    expect(
      (await nextCurationItem(prisma, await projectAccess(prisma, assigned, projectId, "scores.review"), queue.id))
        .itemId,
    ).not.toBeNull();
  });

  it("shows the frames nearest to each step's start, the steps and the question", async () => {
    const { projectId, setId, itemIds } = await setup();
    const queue = await createCurationQueue(prisma, await projectAccess(prisma, owner, projectId, "queues.manage"), {
      candidateSetId: setId,
      name: "Screen",
      scope: "all",
    });
    const view = await curationItem(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      queue.id,
      itemIds.c2!,
    );
    // The fixture's frames are 0.25 s apart (9 frames, 0–2 s); steps start at 0, 0.75 and 1.5 s.
    expect(view.stepFrames.map((s) => [s.step, s.start, s.frame?.timestampS])).toEqual([
      [1, 0, 0],
      [2, 0.75, 0.75],
      [3, 1.5, 1.5],
    ]);
    expect(view.candidate.fields).toEqual({
      question: SPECS[1]!.question,
      options: null,
      answer: SPECS[1]!.answer,
      category: null,
    });
    expect(view.nav).toMatchObject({ index: 1, count: 3, previousItemId: itemIds.c1, nextItemId: itemIds.c3 });
    expect(view.mine).toBeNull();
  });
});

describe("curation decisions through saveCandidateCuration", () => {
  it("keeps two curators of the same candidate independent, and gives the same curator's second tab a 409 with the current decision", async () => {
    const { projectId, itemIds } = await setup();
    const ann = await member(projectId, "reviewer");
    const bob = await member(projectId, "reviewer");
    const itemId = itemIds.c1!;
    const annFirst = await saveCandidateCuration(
      prisma,
      await projectAccess(prisma, ann, projectId, "scores.review"),
      itemId,
      {
        decision: "accept",
        edits: { question: "What happens right after the ball is placed?" },
      },
    );
    const bobFirst = await saveCandidateCuration(
      prisma,
      await projectAccess(prisma, bob, projectId, "scores.review"),
      itemId,
      { decision: "reject", reason: "vague" },
    );
    expect([annFirst.version, bobFirst.version]).toEqual([1, 1]);

    // Two tabs of Ann's both saw version 1: the first save wins, the second gets a 409 carrying the winner.
    await saveCandidateCuration(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), itemId, {
      decision: "reject",
      reason: "on second thought, too easy",
      expectedVersion: 1,
    });
    const stale = await saveCandidateCuration(
      prisma,
      await projectAccess(prisma, ann, projectId, "scores.review"),
      itemId,
      {
        decision: "accept",
        edits: { answer: "Down the ramp." },
        expectedVersion: 1,
      },
    ).catch((e) => e);
    expect(stale).toBeInstanceOf(CurationConflictWithCurrentError);
    expect(stale.status).toBe(409);
    expect(stale.details.current).toMatchObject({
      version: 2,
      decision: "reject",
      reason: "on second thought, too easy",
      edits: {},
    });
    // Re-applying the lost save with the version the 409 named works; nothing was lost on the way.
    const reapplied = await saveCandidateCuration(
      prisma,
      await projectAccess(prisma, ann, projectId, "scores.review"),
      itemId,
      {
        decision: "accept",
        edits: { answer: "Down the ramp." },
        expectedVersion: stale.details.current.version,
      },
    );
    expect(reapplied).toMatchObject({ version: 3, decision: "accept", edits: { answer: "Down the ramp." } });

    const record = await candidateCuration(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      itemId,
    );
    expect(record.decisions.map((d) => [d.curator, d.decision, d.version])).toEqual([
      [ann.email, "accept", 3],
      [bob.email, "reject", 1],
    ]);
    expect(
      record.history
        .filter((h) => h.curator === ann.email)
        .map((h) => [h.version, (h.after as { decision: string }).decision]),
    ).toEqual([
      [1, "accept"],
      [2, "reject"],
      [3, "accept"],
    ]);
  });

  it("keeps the history append-only: each save adds a version and leaves the earlier ones as they were", async () => {
    const { projectId, itemIds } = await setup();
    const ann = await member(projectId, "reviewer");
    const first = await saveCandidateCuration(
      prisma,
      await projectAccess(prisma, ann, projectId, "scores.review"),
      itemIds.c1!,
      { decision: "accept" },
    );
    await saveCandidateCuration(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), itemIds.c1!, {
      decision: "reject",
      reason: "too easy",
      expectedVersion: 1,
    });
    const history = await prisma.curationDecisionHistory.findMany({
      where: { decisionId: first.id },
      orderBy: { version: "asc" },
    });
    expect(history.map((h) => [h.version, h.before, h.after])).toEqual([
      [1, null, { decision: "accept", edits: {}, reason: null }],
      [2, { decision: "accept", edits: {}, reason: null }, { decision: "reject", edits: {}, reason: "too easy" }],
    ]);
    // A third save adds a row and leaves the earlier ones as they were.
    await saveCandidateCuration(prisma, await projectAccess(prisma, ann, projectId, "scores.review"), itemIds.c1!, {
      decision: "accept",
      expectedVersion: 2,
    });
    const after = await prisma.curationDecisionHistory.findMany({
      where: { decisionId: first.id },
      orderBy: { version: "asc" },
    });
    expect(after.slice(0, 2)).toEqual(history);
    expect(after.map((h) => h.version)).toEqual([1, 2, 3]);
  });

  it("refuses viewers, a rejection without a reason and an edit that breaks the question", async () => {
    const { projectId, setId, itemIds } = await setup();
    const viewer = await member(projectId, "viewer");
    await expect(projectAccess(prisma, viewer, projectId, "scores.review")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      saveCandidateCuration(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), itemIds.c1!, {
        decision: "reject",
      }),
    ).rejects.toThrow(/Say why/);
    await expect(
      saveCandidateCuration(prisma, await projectAccess(prisma, owner, projectId, "scores.review"), itemIds.c1!, {
        decision: "accept",
        edits: { options: { A: "x", B: "y" } },
      }),
    ).rejects.toThrow(/an open question has no options/);
    const stranger = await makeUser();
    await expect(projectAccess(prisma, stranger, projectId, "scores.review")).rejects.toBeInstanceOf(NotFoundError);
    // Through an access to another project, even the owner's own, the candidate is not found.
    const elsewhere = await createProject(prisma, owner, { name: "Another project" });
    const there = await projectAccess(prisma, owner, elsewhere.id, "scores.review");
    await expect(saveCandidateCuration(prisma, there, itemIds.c1!, { decision: "accept" })).rejects.toThrow(
      "No such candidate question.",
    );
    await expect(candidateCuration(prisma, there, itemIds.c1!)).rejects.toThrow("No such candidate question.");
    // A transformed candidate shows its correct answer as A and the four wrong ones after it.
    const views = await loadCandidateViews(
      prisma,
      await projectAccess(prisma, owner, projectId, "project.view"),
      setId,
    );
    expect(curatedFieldsOf(transformedView(views[0]!, ["w1", "w2", "w3", "w4"]))).toEqual({
      question: SPECS[0]!.question,
      options: { A: SPECS[0]!.answer, B: "w1", C: "w2", D: "w3", E: "w4" },
      answer: "A",
      category: "Step Sequencing",
    });
  });
});
