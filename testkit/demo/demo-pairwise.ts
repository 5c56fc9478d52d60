/**
 * The pairwise part of `npm run demo` (testkit/demo/seed-demo-project.ts): a pair set "Demo: generators compared"
 * over the demo's clips, two simulated reviewers' verdicts and a simulated pairwise judge run in both orders, so the
 * pairwise leaderboard and the judge-vs-people agreement have something to show on the first visit.
 *
 * The demo uploads its clips from one generator only, so each prompt gets three simulated generators' videos as
 * metadata-only rows: they name the demo clip's stored file (they play as that clip) and have no frame sets (the
 * judge runs leave videos without frames out). Every verdict is drawn from a hidden "true strength" per generator
 * and aspect plus deterministic noise (a hash of what it is about), so the demo shows the same board every time.
 *
 * Rows are written with Prisma directly, keyed by the tables' unique keys (and ids derived from them), so seeding
 * twice adds nothing.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { PrismaClient } from "../../lib/generated/prisma/client";
import { DEFAULT_ASPECTS } from "../../lib/pairwise/aspects";
import { swapVerdict, type Side, type Verdict } from "../../lib/pairwise/verdicts";
import { DEMO_GENERATOR } from "./demo-clip-upload";
import type { DemoLink, DemoResumeContext, DemoSeedContext } from "./demo-part";
import { DEMO_STUB_ENDPOINT } from "./demo-stub-endpoints";
import { simulatedReviewer } from "./simulated-reviewer";

export const DEMO_PAIR_SET = "Demo: generators compared";

/**
 * Each generator's hidden strength on the Elo scale (400 per factor of 10), by aspect: the demo's verdicts are drawn
 * from these, so a leaderboard fitted on them should come out near this order (B first, D last).
 */
export const DEMO_TRUE_STRENGTH: ReadonlyMap<string, Readonly<Record<string, number>>> = new Map([
  ["Simulated model B", { overall: 1300, text_alignment: 1340, physics: 1260, visual_quality: 1300 }],
  [DEMO_GENERATOR, { overall: 1100, text_alignment: 1060, physics: 1140, visual_quality: 1100 }],
  ["Simulated model C", { overall: 900, text_alignment: 940, physics: 860, visual_quality: 920 }],
  ["Simulated model D", { overall: 700, text_alignment: 660, physics: 740, visual_quality: 680 }],
]);

const SIMULATED_GENERATORS = [...DEMO_TRUE_STRENGTH.keys()].filter((name) => name !== DEMO_GENERATOR);

/** The same accounts the hallucination part marks spans with; B answers faster and leans to the left video. */
export const PAIRWISE_REVIEWERS = [
  { email: "simulated-reviewer-a@framejury.local", name: "Reviewer A (simulated)", leftLean: 0, msBase: 5000 },
  { email: "simulated-reviewer-b@framejury.local", name: "Reviewer B (simulated)", leftLean: 0.3, msBase: 2500 },
] as const;

/** How often a verdict is a tie, and how often the simulated judge picks whichever video it was shown first. */
const TIE_SHARE = 0.12;
const JUDGE_FIRST_POSITION_SHARE = 0.12;

/**
 * The seed of the demo's noise: the first of "0", "1", "2"… under which, on so few pairs (four per generator pair and
 * rater), the people's and the judge's Bradley–Terry orders both come out as the hidden strengths' on every aspect,
 * the judge flips at least three pairs and reviewer B's lean to the left shows; most seeds swap two neighbours.
 */
const NOISE_SEED = "56";

/** A number in [0, 1) fixed by `key`: the demo's noise, the same on every seed. */
export function demoNoise(key: string): number {
  return createHash("sha256").update(`${NOISE_SEED}|${key}`).digest().readUInt32BE(0) / 2 ** 32;
}

function derivedId(prefix: string, key: string): string {
  return `${prefix}${createHash("sha256").update(key).digest("hex").slice(0, 22)}`;
}

interface DemoPairRow {
  id: string;
  prompt: string;
  generatorA: string;
  generatorB: string;
  honeypot: boolean;
}

/**
 * A verdict drawn from the generators' strengths on `aspect`: a tie (both good when their mean strength is at least
 * 1000, else both bad) TIE_SHARE of the time, otherwise A with the Bradley–Terry probability.
 */
export function simulatedVerdict(pair: DemoPairRow, aspect: string, key: string): Verdict {
  const strengthA = DEMO_TRUE_STRENGTH.get(pair.generatorA)?.[aspect] ?? 1000;
  const strengthB = DEMO_TRUE_STRENGTH.get(pair.generatorB)?.[aspect] ?? 1000;
  if (demoNoise(`${key}|tie`) < TIE_SHARE) return (strengthA + strengthB) / 2 >= 1000 ? "tie_good" : "tie_bad";
  const probabilityA = 1 / (1 + 10 ** ((strengthB - strengthA) / 400));
  return demoNoise(`${key}|win`) < probabilityA ? "A" : "B";
}

/** What a pair is about, in words that are the same in every database (no row ids). */
function pairKeyOf(pair: DemoPairRow): string {
  return `${pair.prompt}|${pair.generatorA}|${pair.generatorB}${pair.honeypot ? "|honeypot" : ""}`;
}

/** Seeds the pair set, the reviewers' verdicts and the judge run (each once); returns the pages to print. */
export async function seedDemoPairwise(
  context: Pick<DemoSeedContext, "prisma" | "actor" | "projectId" | "endpointId" | "log">,
): Promise<DemoLink[]> {
  const { prisma, actor, projectId, endpointId, log } = context;
  const clips = await prisma.video.findMany({
    where: { projectId, model: DEMO_GENERATOR },
    orderBy: { relativePath: "asc" },
  });
  if (clips.length === 0) {
    log("no demo clips: the pairwise demo is left out");
    return [];
  }
  const videos = await simulatedGeneratorVideos(prisma, actor.userId, projectId, clips);
  const pairSetId = await demoPairSet(prisma, actor.userId, projectId);
  const pairs = await demoPairs(prisma, projectId, pairSetId, videos);
  const reviewerIds = await Promise.all(PAIRWISE_REVIEWERS.map((r) => simulatedReviewer(prisma, projectId, r)));
  const reviewerVerdicts = await seedReviewerVerdicts(prisma, { projectId, pairSetId, pairs, reviewerIds });
  const judge = await seedJudgeRun(prisma, { projectId, pairSetId, endpointId, userId: actor.userId, pairs });
  await prisma.$executeRaw`
    UPDATE pair p SET "doneCount" = (SELECT count(*) FROM pair_assignment a WHERE a."pairId" = p.id AND a.status = 'done')
    WHERE p."pairSetId" = ${pairSetId}`;
  await prisma.pairSet.update({ where: { id: pairSetId }, data: { pairCount: pairs.length } });
  log(
    `pair set "${DEMO_PAIR_SET}": ${pairs.length} pairs, ${reviewerVerdicts} verdicts by 2 simulated reviewers, ` +
      `a simulated judge run in both orders (${judge.flips} position flips)`,
  );
  return pairwiseLinks({ prisma, projectId });
}

/** A later start: seeds what an older demo lacks (nothing when it has it) and returns the pages. */
export async function resumeDemoPairwise(context: DemoResumeContext): Promise<DemoLink[]> {
  const { prisma, actor, projectId } = context;
  const endpoint = await prisma.judgeEndpoint.findFirst({
    where: { projectId, name: DEMO_STUB_ENDPOINT },
    select: { id: true },
  });
  if (!endpoint) return pairwiseLinks(context);
  return seedDemoPairwise({ prisma, actor, projectId, endpointId: endpoint.id, log: () => {} });
}

/** The pair set's leaderboard, agreement and review pages (the boards' and review's pages). */
export async function pairwiseLinks({
  prisma,
  projectId,
}: Pick<DemoResumeContext, "prisma" | "projectId">): Promise<DemoLink[]> {
  const set = await prisma.pairSet.findUnique({
    where: { projectId_name: { projectId, name: DEMO_PAIR_SET } },
    select: { id: true },
  });
  if (!set) return [];
  const base = `/projects/${projectId}/pairs/${set.id}`;
  return [
    { label: "a pairwise leaderboard", path: `${base}/leaderboard`, note: "two simulated reviewers and a judge" },
    { label: "judge vs people on pairs", path: `${base}/agreement`, note: "simulated, both orders" },
    { label: "compare two videos side by side", path: `${base}/review` },
  ];
}

interface DemoVideo {
  id: string;
  generator: string;
  prompt: string;
}

type ClipRow = Awaited<ReturnType<PrismaClient["video"]["findMany"]>>[number];

/** The demo clip's prompt: the row's, else its VBench-style file name's (`<prompt>-<index>.mp4`). */
function clipPrompt(clip: ClipRow): string {
  return clip.prompt ?? clip.promptTruncated ?? path.basename(clip.fileName).replace(/-\d+\.mp4$/i, "");
}

/**
 * The demo clips and, per clip, one metadata-only video of each simulated generator (same prompt, same stored file,
 * its own content hash so the project's (projectId, sha256) key tells them apart; no frame sets).
 */
async function simulatedGeneratorVideos(
  prisma: PrismaClient,
  userId: string,
  projectId: string,
  clips: ClipRow[],
): Promise<DemoVideo[]> {
  const rows = clips.flatMap((clip) =>
    SIMULATED_GENERATORS.map((generator) => ({
      projectId,
      sha256: createHash("sha256").update(`demo-pairwise|${generator}|${clip.sha256}`).digest("hex"),
      sizeBytes: clip.sizeBytes,
      fileName: clip.fileName,
      relativePath: `${generator}/${clip.relativePath.replace(/^[^/]+\//, "")}`,
      storageKey: clip.storageKey,
      contentType: clip.contentType,
      status: "pending_extraction" as const,
      prompt: clipPrompt(clip),
      dimensions: clip.dimensions,
      model: generator,
      sampleIndex: clip.sampleIndex ?? 0,
      extra: { simulated: "a simulated generator's video for the pairwise demo: it plays the demo clip's file" },
      durationS: clip.durationS,
      fps: clip.fps,
      width: clip.width,
      height: clip.height,
      createdById: userId,
    })),
  );
  await prisma.video.createMany({ data: rows, skipDuplicates: true });
  const simulated = await prisma.video.findMany({
    where: { projectId, sha256: { in: rows.map((r) => r.sha256) } },
    select: { id: true, model: true, prompt: true },
  });
  return [
    ...clips.map((clip) => ({ id: clip.id, generator: DEMO_GENERATOR, prompt: clipPrompt(clip) })),
    ...simulated.map((v) => ({ id: v.id, generator: v.model!, prompt: v.prompt! })),
  ];
}

async function demoPairSet(prisma: PrismaClient, userId: string, projectId: string): Promise<string> {
  const set = await prisma.pairSet.upsert({
    where: { projectId_name: { projectId, name: DEMO_PAIR_SET } },
    create: {
      projectId,
      name: DEMO_PAIR_SET,
      aspects: DEFAULT_ASPECTS,
      origin: { source: "project", design: "all_pairs", sample: "same_index", seed: 66, prompts: "all" },
      // Two simulated reviewers have done every pair: the demo's user can review them as the third.
      reviewersPerPair: 3,
      guidelines: "Simulated demo data: the three simulated generators' videos play the demo clip's file.",
      createdById: userId,
    },
    update: {},
    select: { id: true },
  });
  return set.id;
}

/**
 * Every generator pair per prompt (A and B drawn by a hash of the pair), and one honeypot pair (the first clip
 * against a frozen copy of itself), at positions fixed by a hash of what each pair is about.
 */
async function demoPairs(
  prisma: PrismaClient,
  projectId: string,
  pairSetId: string,
  videos: DemoVideo[],
): Promise<DemoPairRow[]> {
  const byPrompt = new Map<string, DemoVideo[]>();
  for (const video of videos) byPrompt.set(video.prompt, [...(byPrompt.get(video.prompt) ?? []), video]);
  const made: { a: DemoVideo; b: DemoVideo; honeypot: boolean }[] = [];
  for (const [prompt, ofPrompt] of [...byPrompt].sort(([p], [q]) => p.localeCompare(q))) {
    const sorted = [...ofPrompt].sort((x, y) => x.generator.localeCompare(y.generator));
    for (let i = 0; i < sorted.length; i++)
      for (let j = i + 1; j < sorted.length; j++) {
        const swap = demoNoise(`${prompt}|${sorted[i]!.generator}|${sorted[j]!.generator}|sides`) < 0.5;
        made.push({ a: swap ? sorted[j]! : sorted[i]!, b: swap ? sorted[i]! : sorted[j]!, honeypot: false });
      }
  }
  const honeypotVideo = videos.find((v) => v.generator === DEMO_GENERATOR)!;
  made.push({ a: honeypotVideo, b: honeypotVideo, honeypot: true });
  const keyed = made.map((m) => ({
    ...m,
    key: pairKeyOf({ id: "", prompt: m.a.prompt, generatorA: m.a.generator, generatorB: m.b.generator, ...m }),
  }));
  keyed.sort((x, y) => demoNoise(x.key) - demoNoise(y.key) || x.key.localeCompare(y.key));
  await prisma.pair.createMany({
    data: keyed.map((m, position) => ({
      pairSetId,
      projectId,
      pairKey: m.honeypot ? `honeypot:frozen:${m.a.id}` : `${m.a.id}:${m.b.id}`,
      position,
      videoAId: m.a.id,
      videoBId: m.b.id,
      generatorA: m.a.generator,
      generatorB: m.b.generator,
      prompt: m.a.prompt,
      nameA: `${m.a.generator}/${m.a.prompt}`,
      nameB: `${m.b.generator}/${m.b.prompt}`,
      honeypot: m.honeypot ? { kind: "frozen" } : undefined,
    })),
    skipDuplicates: true,
  });
  const pairs = await prisma.pair.findMany({ where: { pairSetId }, orderBy: { position: "asc" } });
  return pairs.map((p) => ({
    id: p.id,
    prompt: p.prompt,
    generatorA: p.generatorA,
    generatorB: p.generatorB,
    honeypot: p.honeypot !== null,
  }));
}

interface ReviewerVerdictRow {
  id: string;
  pairId: string;
  aspect: string;
  raterId: string;
  verdict: Verdict;
  aShownOn: Side;
  msToVerdict: number;
}

/**
 * One reviewer's verdicts on a pair: the side A was shown on is drawn per pair (as a claim draws it); reviewer B
 * answers "the left one" `leftLean` of the time. On the honeypot, reviewer A answers A (right) and B answers B.
 */
function reviewerVerdictsOn(pair: DemoPairRow, reviewerIndex: number, raterId: string): ReviewerVerdictRow[] {
  const reviewer = PAIRWISE_REVIEWERS[reviewerIndex]!;
  const pairKey = pairKeyOf(pair);
  const aShownOn: Side = demoNoise(`${pairKey}|${reviewer.email}|side`) < 0.5 ? "left" : "right";
  return DEFAULT_ASPECTS.map(({ id: aspect }) => {
    const key = `${pairKey}|${aspect}|${reviewer.email}`;
    let verdict: Verdict;
    if (pair.honeypot) verdict = reviewerIndex === 0 ? "A" : "B";
    else if (demoNoise(`${key}|lean`) < reviewer.leftLean) verdict = aShownOn === "left" ? "A" : "B";
    else verdict = simulatedVerdict(pair, aspect, key);
    return {
      id: derivedId("dpv", `${pair.id}|${aspect}|${raterId}`),
      pairId: pair.id,
      aspect,
      raterId,
      verdict,
      aShownOn,
      msToVerdict: reviewer.msBase + Math.floor(demoNoise(`${key}|ms`) * 2 * reviewer.msBase),
    };
  });
}

/** Both reviewers' verdicts on every pair and aspect, each with its first history entry and a done claim. */
async function seedReviewerVerdicts(
  prisma: PrismaClient,
  input: { projectId: string; pairSetId: string; pairs: DemoPairRow[]; reviewerIds: string[] },
): Promise<number> {
  const { projectId, pairSetId, pairs, reviewerIds } = input;
  const rows = pairs.flatMap((pair) => reviewerIds.flatMap((raterId, i) => reviewerVerdictsOn(pair, i, raterId)));
  await prisma.pairVerdict.createMany({
    data: rows.map((row) => ({ ...row, projectId, pairSetId, raterKind: "reviewer", strength: 1 })),
    skipDuplicates: true,
  });
  await prisma.pairVerdictHistory.createMany({
    data: rows.map((row) => ({
      id: `${row.id}h1`,
      verdictId: row.id,
      changedBy: row.raterId,
      version: 1,
      after: { verdict: row.verdict, strength: 1, aShownOn: row.aShownOn, note: "" },
    })),
    skipDuplicates: true,
  });
  const claims = new Map(rows.map((row) => [`${row.pairId}|${row.raterId}`, row]));
  await prisma.pairAssignment.createMany({
    data: [...claims.values()].map((row) => ({
      pairId: row.pairId,
      pairSetId,
      reviewerId: row.raterId,
      status: "done" as const,
      aShownOn: row.aShownOn,
      doneAt: new Date(),
    })),
    skipDuplicates: true,
  });
  return rows.length;
}

const JUDGE_LABELS: Record<Verdict, string> = {
  A: "[[A>B]]",
  B: "[[B>A]]",
  tie_good: "[[A=B=good]]",
  tie_bad: "[[A=B=bad]]",
};

/**
 * The simulated judge's two answers on a pair's aspect, in the pair's terms: one verdict drawn as a reviewer's is,
 * except that JUDGE_FIRST_POSITION_SHARE of the time it picks the video shown first in each order (AB: A, BA: B), a
 * position flip. The honeypot's answer is A in both orders.
 */
export function simulatedJudgeAnswers(pair: DemoPairRow, aspect: string): { AB: Verdict; BA: Verdict } {
  const key = `${pairKeyOf(pair)}|${aspect}|judge`;
  if (pair.honeypot) return { AB: "A", BA: "A" };
  if (demoNoise(`${key}|first`) < JUDGE_FIRST_POSITION_SHARE) return { AB: "A", BA: "B" };
  const verdict = simulatedVerdict(pair, aspect, key);
  return { AB: verdict, BA: verdict };
}

/**
 * The rule the seeded run is reconciled by (lib/pairwise/judge's, for the answers the demo draws): both orders
 * agree → that verdict; opposite winners → tie_good, counted as a position flip.
 */
export function reconcileDemoOrders(ab: Verdict, ba: Verdict): { verdict: Verdict; flip: boolean } {
  if (ab === ba) return { verdict: ab, flip: false };
  if ((ab === "A" && ba === "B") || (ab === "B" && ba === "A")) return { verdict: "tie_good", flip: true };
  throw new Error(`the demo's judge draws no answers ${ab} and ${ba}`);
}

/** A finished ("done") simulated JudgeRun (pipeline "pairwise") with both orders' answers and their reconciled verdicts. */
async function seedJudgeRun(
  prisma: PrismaClient,
  input: { projectId: string; pairSetId: string; endpointId: string; userId: string; pairs: DemoPairRow[] },
): Promise<{ runId: string; flips: number }> {
  const { projectId, pairSetId, endpointId, userId, pairs } = input;
  const endpoint = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
  const runId = derivedId("dpr", pairSetId);
  const now = new Date();
  await prisma.judgeRun.upsert({
    where: { id: runId },
    create: {
      id: runId,
      projectId,
      pipeline: "pairwise",
      endpointId,
      pairSetId,
      status: "done",
      simulated: true,
      settings: { aspects: DEFAULT_ASPECTS.map((a) => a.id), orders: ["AB", "BA"] },
      endpointSnapshot: { name: endpoint.name, model: endpoint.model },
      inputMode: endpoint.inputMode,
      createdById: userId,
      startedAt: now,
      finishedAt: now,
    },
    update: {},
  });
  const answers = pairs.flatMap((pair) =>
    DEFAULT_ASPECTS.map(({ id: aspect }) => ({ pair, aspect, ...simulatedJudgeAnswers(pair, aspect) })),
  );
  await prisma.pairJudgeAnswer.createMany({
    data: answers.flatMap(({ pair, aspect, AB, BA }) => [
      { runId, pairId: pair.id, aspect, order: "AB", verdict: AB, strength: 1, answer: JUDGE_LABELS[AB] },
      // In order BA the judge saw B as "Video A": its label is in those terms, the stored verdict in the pair's.
      { runId, pairId: pair.id, aspect, order: "BA", verdict: BA, strength: 1, answer: JUDGE_LABELS[swapVerdict(BA)] },
    ]),
    skipDuplicates: true,
  });
  let flips = 0;
  const verdicts = answers.map(({ pair, aspect, AB, BA }) => {
    const reconciled = reconcileDemoOrders(AB, BA);
    if (reconciled.flip) flips++;
    return {
      projectId,
      pairSetId,
      pairId: pair.id,
      aspect,
      raterKind: "judge",
      raterId: `run:${runId}`,
      runId,
      verdict: reconciled.verdict,
      note: reconciled.flip ? "the two orders disagreed (AB: A, BA: B): a position flip, counted as a tie" : "",
    };
  });
  await prisma.pairVerdict.createMany({ data: verdicts, skipDuplicates: true });
  return { runId, flips };
}
