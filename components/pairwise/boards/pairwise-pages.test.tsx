/**
 * The pairwise pages rendered on the server (react-dom/server, on PostgreSQL): the leaderboard shows people and the
 * judge side by side with an unrated generator and the honeypots said, the same for a viewer as for the owner; a set
 * with no verdict shows why there is no ranking; a bad query is a note, not an error page; the agreement page has a
 * table per aspect and the human-noise line; the raters page is the owners'; the list and the set page show counts.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { addVerdict, expectedVerdict, seedBoardProject, type BoardSeed } from "@/testkit/pairwise/board-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import type { PairSetOverview } from "@/lib/pairwise/reports/pair-set-overview";
import { PairSetRuns } from "./pair-set-sections";

const page = vi.hoisted(() => ({ actor: null as Actor | null }));
vi.mock("@/app/_server/actor", async () => {
  const { projectAccess } = await import("@/lib/authz/permissions");
  const { prisma: db } = await import("@/lib/db/prisma");
  return {
    // As the real one: the actor's checked access to the page's project for the page's action.
    requirePageProjectAccess: async (projectId: string, action = "project.view") => {
      const access = await projectAccess(db, page.actor!, projectId, action as "project.view");
      return { actor: page.actor, role: access.role, access };
    },
  };
});
// The forms are client components (router, query client): their own tests are the browser's; here, where they go.
vi.mock("@/components/pairwise/boards/new-pair-set-form", () => ({
  NewPairSetForm: () => <div data-testid="new-pair-set-form" />,
}));
vi.mock("@/components/pairwise/boards/pair-import-form", () => ({
  PairImportForm: () => <div data-testid="pair-import-form" />,
}));
vi.mock("@/components/pairwise/boards/queue-next-button", () => ({
  QueueNextButton: ({ pairIds }: { pairIds: string[] }) => (
    <div data-testid="queue-next-button">Queue the next {pairIds.length}</div>
  ),
}));
vi.mock("@/components/pairwise/boards/gold-verdict-form", () => ({
  GoldVerdictForm: ({ pairId, gold }: { pairId: string; gold: { version: number } | null }) => (
    <div data-testid="gold-verdict-form">
      {pairId} {gold ? `version ${gold.version}` : "no gold"}
    </div>
  ),
}));
vi.mock("@/components/pairwise/boards/judge-pairs-form", () => ({
  JudgePairsForm: ({ label }: { label: string }) => <div data-testid="judge-pairs-form">{label}</div>,
}));
const { default: LeaderboardPage } =
  await import("@/app/(app)/projects/[projectId]/pairs/[pairSetId]/leaderboard/page");
const { default: AgreementPage } = await import("@/app/(app)/projects/[projectId]/pairs/[pairSetId]/agreement/page");
const { default: RatersPage } = await import("@/app/(app)/projects/[projectId]/pairs/[pairSetId]/raters/page");
const { default: GoldPage } = await import("@/app/(app)/projects/[projectId]/pairs/[pairSetId]/gold/page");
const { default: PairSetPage } = await import("@/app/(app)/projects/[projectId]/pairs/[pairSetId]/page");
const { default: PairSetsPage } = await import("@/app/(app)/projects/[projectId]/pairs/page");

let owner: Actor;
let reviewer: Actor;
let viewer: Actor;
let seed: BoardSeed;
let empty: BoardSeed;

beforeAll(async () => {
  [owner, reviewer, viewer] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  seed = await seedBoardProject(prisma, { owner, reviewers: [reviewer], viewer }, "Pairwise pages");
  empty = await seedBoardProject(prisma, { owner, reviewers: [reviewer], viewer }, "Pairwise pages, no votes");
  for (const pair of seed.pairs.filter((p) => p.generatorB !== "Gen D")) {
    const verdict = expectedVerdict(pair.generatorA, pair.generatorB);
    await addVerdict(prisma, seed, pair.id, { kind: "reviewer", userId: reviewer.userId }, verdict);
    await addVerdict(prisma, seed, pair.id, { kind: "judge" }, verdict);
  }
  await addVerdict(prisma, seed, seed.honeypotPairId, { kind: "reviewer", userId: reviewer.userId }, "B");
});

type SetPage = (props: {
  params: Promise<{ projectId: string; pairSetId: string }>;
  searchParams: Promise<Record<string, string>>;
}) => Promise<React.ReactElement>;

async function render(Page: SetPage, actor: Actor, of: BoardSeed = seed, query: Record<string, string> = {}) {
  page.actor = actor;
  const element = await Page({
    params: Promise.resolve({ projectId: of.projectId, pairSetId: of.pairSetId }),
    searchParams: Promise.resolve({ draws: "0", ...query }),
  });
  return renderToStaticMarkup(element);
}

const ratings = (html: string) => [...html.matchAll(/data-testid="pairwise-rating">([^<]*)</g)].map((m) => m[1]);

describe("the pairwise leaderboard page", () => {
  it("shows people and the judge side by side, the unrated generator and the honeypots left out", async () => {
    const html = await render(LeaderboardPage, owner);
    expect(html.match(/data-testid="pairwise-ranking"/g)).toHaveLength(2);
    expect(html.match(/data-testid="pairwise-unrated-row"/g)).toHaveLength(2);
    expect(html).toContain("Gen D");
    expect(html).toContain('data-testid="honeypots-left-out"');
    expect(html).toContain("1 honeypot votes left out");
    expect(html).toContain('data-testid="kendall-tau"');
    expect(html).toContain('data-testid="heat-winRate"');
    expect(html).toContain(
      `/api/v1/pair-sets/${seed.pairSetId}/leaderboard?aspect=overall&amp;raters=people&amp;format=csv`,
    );
  });

  it("gives a viewer the same numbers as the owner", async () => {
    const [asOwner, asViewer] = [await render(LeaderboardPage, owner), await render(LeaderboardPage, viewer)];
    expect(ratings(asViewer)).toEqual(ratings(asOwner));
    expect(ratings(asOwner).length).toBe(6);
  });

  it("says why there is no ranking on a set with no verdict, and notes a bad query instead of failing", async () => {
    const html = await render(LeaderboardPage, viewer, empty);
    expect(html.match(/data-testid="pairwise-board-withheld"/g)).toHaveLength(2);
    expect(html).toContain("No person has given a verdict here yet");
    expect(html).not.toContain('data-testid="pairwise-ranking"');
    const bad = await render(LeaderboardPage, viewer, seed, { aspect: "motion" });
    expect(bad).toContain('data-testid="pairwise-problem"');
    expect(bad).toContain("This pair set has no aspect");
  });
});

describe("a reviewer with blind pairs left", () => {
  it("gets the withheld notice naming the set and the pairs left, and no board", async () => {
    await prisma.pairAssignment.create({
      data: { pairId: empty.pairs[0]!.id, pairSetId: empty.pairSetId, reviewerId: reviewer.userId, aShownOn: "right" },
    });
    for (const Page of [LeaderboardPage, AgreementPage]) {
      const html = await render(Page, reviewer, empty);
      expect(html).toContain('data-testid="withheld"');
      expect(html).toContain("Four generators: 25 items left");
      expect(html).not.toContain('data-testid="pairwise-board"');
    }
  });
});

describe("the pairwise agreement page", () => {
  it("has a table and a chart per aspect with verdicts, the noise line, and the CSV", async () => {
    const html = await render(AgreementPage, viewer);
    expect(html).toContain('data-testid="pairwise-agreement-overall"');
    expect(html).toContain('data-testid="pairwise-agreement-table"');
    expect(html).toContain('data-testid="pairwise-agreement-chart"');
    expect(html).toContain('data-testid="human-noise"');
    expect(html).toContain("No verdict on this aspect yet.");
    expect(html).toContain(`/api/v1/pair-sets/${seed.pairSetId}/agreement?format=csv`);
  });
});

describe("the raters page", () => {
  it("shows the owner each rater, honeypots included", async () => {
    const html = await render(RatersPage, owner);
    expect(html.match(/data-testid="pairwise-rater-row"/g)).toHaveLength(2);
    expect(html).toContain("0% of 1");
  });

  it("is not a viewer's or a reviewer's", async () => {
    await expect(render(RatersPage, viewer)).rejects.toThrow();
    await expect(render(RatersPage, reviewer)).rejects.toThrow();
    const html = await render(LeaderboardPage, viewer);
    expect(html).not.toContain('data-testid="pair-set-link-raters"');
  });
});

describe("the pair set list and page", () => {
  it("lists the sets with their counts for everyone, the forms for owners only", async () => {
    page.actor = owner;
    const list = (actor: Actor) => {
      page.actor = actor;
      return PairSetsPage({ params: Promise.resolve({ projectId: seed.projectId }) }).then(renderToStaticMarkup);
    };
    const asOwner = await list(owner);
    expect(asOwner).toContain('data-testid="new-pair-set-form"');
    expect(asOwner).toContain('data-testid="pair-import-form"');
    expect(asOwner).toContain("Four generators");
    const asViewer = await list(viewer);
    expect(asViewer).not.toContain('data-testid="new-pair-set-form"');
    expect(asViewer).toContain('data-testid="pair-set-row"');
  });

  it("shows the progress, the review link, the judge run and the next pairs", async () => {
    const html = await render(PairSetPage, owner);
    expect(html).toContain("19 verdicts by people");
    expect(html).toContain(`/projects/${seed.projectId}/pairs/${seed.pairSetId}/review`);
    expect(html).toContain('data-testid="pair-set-run-row"');
    expect(html).toContain("Judge both orders");
    expect(html).toContain("Judge the next");
    const asViewer = await render(PairSetPage, viewer);
    expect(asViewer).not.toContain("Judge both orders");
    // A viewer may not review: no link to a page that would refuse them.
    expect(asViewer).not.toContain(`/pairs/${seed.pairSetId}/review`);
  });
});

describe("the gold page", () => {
  it("lists the pairs people disagree on with a gold form each, for owners only", async () => {
    const quiet = await render(GoldPage, owner, empty);
    expect(quiet).toContain("No disagreement");
    const [first, second] = empty.pairs;
    for (const [userId, verdict] of [
      [reviewer.userId, "A"],
      [owner.userId, "B"],
    ] as const)
      await addVerdict(prisma, empty, first!.id, { kind: "reviewer", userId }, verdict);
    await addVerdict(prisma, empty, second!.id, { kind: "reviewer", userId: reviewer.userId }, "A");
    await addVerdict(prisma, empty, first!.id, { kind: "gold" }, "A");
    const html = await render(GoldPage, owner, empty);
    expect(html.match(/data-testid="gold-verdict-form"/g)).toHaveLength(1);
    expect(html).toContain(`${first!.id} version 1`);
    expect(html).toContain("People said: A, B");
    const unknown = await render(GoldPage, owner, empty, { aspect: "nosuch" });
    expect(unknown).toContain('data-testid="pairwise-problem"');
    await expect(render(GoldPage, reviewer, empty)).rejects.toThrow();
    await expect(render(GoldPage, viewer, empty)).rejects.toThrow();
  });
});

describe("the set's judge runs", () => {
  it("count each run's answers that hold no verdict (pairs not judged), out of its answers", () => {
    const trust = {
      aspect: "overall",
      answers: 50,
      answersWithoutVerdict: 48,
      pairsBothOrders: 1,
      positionFlips: 0,
      positionFlipRate: 0,
      inconsistentPairs: 0,
      decidedAnswers: 2,
      firstPositionWins: 1,
      firstPositionWinShare: 0.5,
    };
    const overview = { runs: [{ id: "r1", label: "Panel of 2 judges", status: "done", trust: [trust] }] };
    const html = renderToStaticMarkup(<PairSetRuns overview={overview as unknown as PairSetOverview} />);
    expect(html).toMatch(/data-testid="answers-without-verdict">48 of 50</);
  });
});
