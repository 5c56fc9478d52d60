import type { Actor } from "../../lib/auth/actor";
import type { PrismaClient } from "../../lib/generated/prisma/client";
import { DEFAULT_ASPECTS } from "../../lib/pairwise/aspects";
import type { Verdict } from "../../lib/pairwise/verdicts";

export interface BoardSeed {
  projectId: string;
  pairSetId: string;
  runId: string;
  /** Non-honeypot pairs in position order: [prompt, generatorA, generatorB, id]. */
  pairs: { id: string; prompt: string; generatorA: string; generatorB: string }[];
  honeypotPairId: string;
}

/** Every generator pair each prompt has; "Gen D" is in pairs of its own that no one judges (an unrated generator). */
const MATCHES: [string, string][] = [
  ["Gen A", "Gen B"],
  ["Gen B", "Gen C"],
  ["Gen A", "Gen C"],
  ["Gen A", "Gen D"],
];

/**
 * A project whose pair set ("overall" and "physics") has six prompts × four generator pairs and one honeypot pair,
 * with members (the owner, `reviewers` as reviewers, `viewer`), and a pairwise judge run of the set. No verdict yet:
 * `addVerdict` writes them.
 */
export async function seedBoardProject(
  prisma: PrismaClient,
  people: { owner: Actor; reviewers: Actor[]; viewer: Actor },
  name = "Pairwise boards",
): Promise<BoardSeed> {
  const project = await prisma.project.create({
    data: {
      name,
      members: {
        create: [
          { userId: people.owner.userId, role: "owner" },
          ...people.reviewers.map((r) => ({ userId: r.userId, role: "reviewer" as const })),
          { userId: people.viewer.userId, role: "viewer" },
        ],
      },
    },
  });
  const rows = Array.from({ length: 6 }, (_, p) => MATCHES.map(([a, b]) => ({ prompt: `Prompt ${p}`, a, b }))).flat();
  const set = await prisma.pairSet.create({
    data: {
      projectId: project.id,
      name: "Four generators",
      aspects: DEFAULT_ASPECTS.filter((aspect) => aspect.id === "overall" || aspect.id === "physics"),
      origin: { source: "project", design: "all_pairs", sample: "same", seed: 1 },
      createdById: people.owner.userId,
      pairCount: rows.length + 1,
      pairs: {
        create: [
          ...rows.map((row, position) => ({
            projectId: project.id,
            pairKey: `key-${position}`,
            position,
            generatorA: row.a,
            generatorB: row.b,
            prompt: row.prompt,
            nameA: `${row.a}-${position}.mp4`,
            nameB: `${row.b}-${position}.mp4`,
          })),
          {
            projectId: project.id,
            pairKey: "honeypot-0",
            position: rows.length,
            generatorA: "Gen A",
            generatorB: "Gen A",
            prompt: "Prompt 0",
            nameA: "honey.mp4",
            nameB: "honey (frozen).mp4",
            honeypot: { kind: "frozen" },
          },
        ],
      },
    },
    include: { pairs: { orderBy: { position: "asc" } } },
  });
  const endpoint = await prisma.judgeEndpoint.create({
    data: {
      projectId: project.id,
      name: "stub",
      baseUrl: "http://127.0.0.1:9",
      model: "stub-vision",
      createdById: people.owner.userId,
    },
  });
  const run = await prisma.judgeRun.create({
    data: {
      projectId: project.id,
      pipeline: "pairwise",
      endpointId: endpoint.id,
      status: "done",
      pairSetId: set.id,
      createdById: people.owner.userId,
      endpointSnapshot: { name: "stub", model: "stub-vision" },
    },
  });
  const honeypot = set.pairs.find((pair) => pair.honeypot !== null)!;
  return {
    projectId: project.id,
    pairSetId: set.id,
    runId: run.id,
    pairs: set.pairs
      .filter((pair) => pair.honeypot === null)
      .map(({ id, prompt, generatorA, generatorB }) => ({ id, prompt, generatorA, generatorB })),
    honeypotPairId: honeypot.id,
  };
}

/** One verdict, written as the stored row (people with the side A was shown on and a time; judges with their run). */
export async function addVerdict(
  prisma: PrismaClient,
  seed: BoardSeed,
  pairId: string,
  rater:
    | { kind: "reviewer"; userId: string; aShownOn?: "left" | "right"; ms?: number }
    | { kind: "judge" }
    | { kind: "gold" },
  verdict: Verdict,
  aspect = "overall",
): Promise<void> {
  const raterId = rater.kind === "reviewer" ? rater.userId : rater.kind === "judge" ? `run:${seed.runId}` : "gold";
  await prisma.pairVerdict.upsert({
    where: { pairId_aspect_raterId: { pairId, aspect, raterId } },
    create: {
      projectId: seed.projectId,
      pairSetId: seed.pairSetId,
      pairId,
      aspect,
      raterKind: rater.kind,
      raterId,
      verdict,
      aShownOn: rater.kind === "reviewer" ? (rater.aShownOn ?? "left") : null,
      msToVerdict: rater.kind === "reviewer" ? (rater.ms ?? 4000) : null,
      runId: rater.kind === "judge" ? seed.runId : null,
    },
    update: { verdict },
  });
}

/** The verdict a generator order implies: the better-listed generator wins ("Gen A" > "Gen B" > "Gen C"). */
export function expectedVerdict(generatorA: string, generatorB: string): Verdict {
  return generatorA < generatorB ? "A" : "B";
}
