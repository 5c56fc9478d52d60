/**
 * Span agreement of a project's task from PostgreSQL: every span of the scope that counts (never a page of them),
 * who looked at which video, and each video's frame count, matched (span-agreement.ts) and reported with each
 * generator's part (by-generator.ts). Withheld whole (409 `withheld`) while the caller reviews any of the scope's
 * videos blind, as the agreement report is.
 */
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import type { ProjectAccess } from "../../authz/permissions";
import { directRows } from "../../db/direct-sql";
import { NotFoundError, ValidationError } from "../../errors";
import { reviewerInfo, scopeRuns } from "../../agreement/load";
import type { TaskDeclaration } from "../../task-modules/task-declaration";
import { blindVideoIdsFor } from "../../visibility/judge-visibility";
import { requireWholeView } from "../../visibility/withheld";
import { recordIdSchema } from "../../validation/ids";
import { projectSpanLabels, spanLabelIdSchema, spanLabelsFor } from "../span-labels";
import { GOLD_AUTHOR_ID, judgeAuthorId } from "../span-types";
import { decodeSpanGroups, type LoadedSpan, type SpanGroup } from "./span-groups";
import { byGeneratorOf, type SpanGeneratorAgreement } from "./by-generator";
import { rematchVideos } from "./rematch";
import {
  type MatchedPairs,
  agreementOfMatched,
  comparisonsOfPairs,
  markedLabels,
  matchPairs,
  matchedOfLabel,
} from "./span-agreement";
import { LastKept } from "./last-kept";
import { keptReportKey, spanRevision, videosWrittenSince } from "./span-agreement-cache";
import { SnapshotWriter, readSnapshot } from "./span-agreement-snapshot";
import type { SpanAgreementInput, SpanAgreementOptions, SpanAgreementResult, SpanRater, SpanRaterKind } from "./types";

/** The query of the span agreement route and page: a task, optionally one judge run and one label. */
export const spanAgreementQuerySchema = z
  .object({
    task: z.string().trim().min(1, "task is required").max(200),
    runId: recordIdSchema.optional(),
    label: spanLabelIdSchema.optional(),
    format: z.enum(["json", "csv"]).default("json"),
  })
  .strict();
export type SpanAgreementQuery = z.output<typeof spanAgreementQuerySchema>;

export interface SpanAgreementReport extends SpanAgreementResult {
  task: string;
  runId: string | null;
  label: string | null;
  /** The same comparisons over each generator's videos alone (`video.model`), generators in natural order. */
  byGenerator: SpanGeneratorAgreement[];
}

/** Where the task's labels are found, and whether its runs say where (a pipeline with judgeSpans). */
export interface SpanAgreementCatalogue {
  findTask(id: string): TaskDeclaration | null;
  readonly pipelines?: Readonly<Record<string, { judgeSpans?: unknown }>>;
}

interface Scope {
  projectId: string;
  task: string;
  runId: string | null;
}

/**
 * The scope's spans of every label (of the `videos` alone, when named); judge spans only of the chosen run when there
 * is one. Read once, in the packed columns of span-groups.ts: one row of the video ids, then one row per author and
 * label (a handful of groups, so PostgreSQL aggregates them in memory without sorting a million rows). The authors,
 * the labels they used and the videos they marked all come from these rows, so the table is scanned once.
 */
async function spanRows(prisma: PrismaClient, scope: Scope, videos: readonly string[] | null): Promise<LoadedSpan[]> {
  const rows = await directRows(prisma)<Omit<SpanGroup, "authorId"> & { authorId: string | null }>`
    WITH v AS MATERIALIZED (
      SELECT "id", (row_number() OVER (ORDER BY "id") - 1)::int AS "at" FROM "video"
      WHERE "projectId" = ${scope.projectId} AND (${videos && [...videos]}::text[] IS NULL OR "id" = ANY(${videos && [...videos]}::text[]))
    )
    SELECT NULL::text AS "authorId", NULL::text AS "authorKind", NULL::text AS "label",
           coalesce(string_agg(v."id", E'\n' ORDER BY v."at"), '') AS "ids", NULL::text AS "frames", NULL::text AS "boxes"
    FROM v
    UNION ALL
    SELECT s."authorId", s."authorKind"::text, s."label", string_agg(s."id", E'\n'),
           encode(string_agg(int4send(v."at") || int4send(s."startFrame") || int4send(s."endFrame")
             || CASE WHEN jsonb_array_length(s."boxes") > 0 THEN '\\x01'::bytea ELSE '\\x00'::bytea END, ''::bytea), 'base64'),
           string_agg(CASE WHEN jsonb_array_length(s."boxes") > 0 THEN s."boxes"::text END, E'\n')
    FROM "span" s JOIN v ON v."id" = s."videoId"
    WHERE s."projectId" = ${scope.projectId} AND s."task" = ${scope.task} AND NOT s."withdrawn"
      AND (${scope.runId}::text IS NULL OR s."authorKind" <> 'judge' OR s."runId" = ${scope.runId}::text)
    GROUP BY 1, 2, 3`;
  return decodeSpanGroups(
    rows.find((r) => r.authorId === null)?.ids ?? "",
    rows.filter((r): r is SpanGroup => r.authorId !== null),
  );
}

/** What the scope's spans say besides their frames: who marked spans, of which kind, on which videos, with which labels. */
interface SpanFacts {
  kinds: ReadonlyMap<string, SpanRaterKind>;
  /** Each author's videos with a span of theirs. */
  marked: ReadonlyMap<string, ReadonlySet<string>>;
  used: ReadonlySet<string>;
}

function spanFacts(spans: readonly LoadedSpan[]): SpanFacts {
  const kinds = new Map<string, SpanRaterKind>();
  const marked = new Map<string, Set<string>>();
  const used = new Set<string>();
  // A rater marks several spans per video, and the loader's spans come in runs of one author: the same pair is skipped.
  let lastAuthor: string | undefined;
  let lastVideo: string | undefined;
  let videos = new Set<string>();
  for (const span of spans) {
    used.add(span.label);
    if (span.authorId === lastAuthor && span.videoId === lastVideo) continue;
    if (span.authorId !== lastAuthor) {
      kinds.set((lastAuthor = span.authorId), span.authorKind);
      videos = marked.get(lastAuthor) ?? new Set();
      marked.set(lastAuthor, videos);
    }
    videos.add((lastVideo = span.videoId));
  }
  return { kinds, marked, used };
}

/**
 * The videos each rater looked at. Every judge run of the task that says where is a rater of the videos it judged, and
 * every reviewer of the videos they submitted in a localising queue of its runs, whether or not they marked a span
 * there; each other author of spans rated the videos they marked a span of the task on, and those they reviewed
 * without marking one (a judgment of the task, a submitted item of a queue of its runs), the gold its adjudicated
 * videos. A video looked at and left unmarked is agreement on "nothing here", not a missing rating.
 */
async function coverage(prisma: PrismaClient, scope: Scope, facts: SpanFacts, judgesSayWhere: boolean) {
  // A rater's marked videos are its set as long as nothing adds to them (a report compares kept sets by identity
  // first): copied on the first video they lack.
  const byRater = new Map<string, ReadonlySet<string>>(facts.marked);
  const own = new Set<string>();
  const add = (rater: string, videoId: string) => {
    const videos = byRater.get(rater);
    if (videos?.has(videoId)) return;
    if (videos && own.has(rater)) return void (videos as Set<string>).add(videoId);
    own.add(rater);
    byRater.set(rater, new Set(videos).add(videoId));
  };
  const authors = [...byRater.keys()];
  // Per rater one row of its videos joined by newlines (an id never holds one): 150,000 rows cost more to build.
  const rows = await directRows(prisma)<{ rater: string; videos: string }>`
    SELECT c."rater", string_agg(c."videoId", E'\n') AS "videos" FROM (
    SELECT h."reviewerId" AS "rater", h."videoId" FROM "human_judgment" h
    WHERE h."projectId" = ${scope.projectId} AND h."task" = ${scope.task} AND NOT h."withdrawn"
      AND h."reviewerId" = ANY(${[...authors]}::text[])
    UNION
    SELECT a."reviewerId", i."videoId" FROM "review_queue_assignment" a
    JOIN "review_queue_item" i ON i."id" = a."itemId"
    JOIN "review_queue" q ON q."id" = i."queueId"
    JOIN "judge_run" r ON r."id" = q."runId"
    WHERE q."projectId" = ${scope.projectId} AND r."pipeline" = ${scope.task} AND a."status" = 'done'
      AND (q."localize" OR a."reviewerId" = ANY(${[...authors]}::text[]))
    UNION
    SELECT 'run:' || rv."runId", rv."videoId" FROM "run_video" rv
    JOIN "judge_run" r ON r."id" = rv."runId"
    WHERE r."projectId" = ${scope.projectId} AND r."pipeline" = ${scope.task} AND rv."status" = 'done'
      AND (${scope.runId}::text IS NULL OR rv."runId" = ${scope.runId}::text)
      AND (${String(judgesSayWhere)}::boolean OR ('run:' || rv."runId") = ANY(${[...authors]}::text[]))
    UNION
    SELECT ${GOLD_AUTHOR_ID}::text, g."videoId" FROM "gold_judgment" g
    WHERE g."projectId" = ${scope.projectId} AND g."task" = ${scope.task} AND ${GOLD_AUTHOR_ID}::text = ANY(${[...authors]}::text[])
    ) c GROUP BY c."rater"`;
  for (const row of rows) for (const videoId of row.videos.split("\n")) add(row.rater, videoId);
  return byRater;
}

const JUDGE_AUTHOR_PREFIX = judgeAuthorId("");

/** Each rater's kind: an author's as its spans say; a rater without spans is a judge run (`run:<id>`) or a reviewer. */
function raterKinds(facts: SpanFacts, raters: Iterable<string>): [string, SpanRaterKind][] {
  const kinds = new Map(facts.kinds);
  for (const rater of raters)
    if (!kinds.has(rater)) kinds.set(rater, rater.startsWith(JUDGE_AUTHOR_PREFIX) ? "judge" : "reviewer");
  return [...kinds].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Frame count of each video (its stored frame times' length, else the probed frame count; unknown videos are absent)
 * and its generator (`model`, null when it names none).
 */
async function videoFacts(prisma: PrismaClient, projectId: string, videoIds: readonly string[]) {
  // One row of three columns side by side, in the same order: ids and frame counts joined by newlines (neither holds
  // one), generators as an array (a name may hold anything, or be null). 50,000 rows cost more to build.
  const [row] = await directRows(prisma)<{
    ids: string | null;
    frames: string | null;
    models: (string | null)[] | null;
  }>`
    SELECT string_agg(v."id", E'\n' ORDER BY v."id") AS "ids",
           string_agg(coalesce(nullif(cardinality(f."timesS"), 0), v."frameCount", 0)::text, E'\n' ORDER BY v."id") AS "frames",
           array_agg(v."model" ORDER BY v."id") AS "models"
    FROM "video" v LEFT JOIN "video_frame_times" f ON f."videoId" = v."id"
    WHERE v."projectId" = ${projectId} AND v."id" = ANY(${[...videoIds]}::text[])`;
  const ids = row?.ids ? row.ids.split("\n") : [];
  const frames = row?.frames ? row.frames.split("\n") : [];
  const models = row?.models ?? [];
  const known: [string, number][] = [];
  for (let i = 0; i < ids.length; i++) {
    const count = Number(frames[i]);
    if (count > 0) known.push([ids[i]!, count]);
  }
  return { frames: new Map(known), generators: new Map(ids.map((id, i) => [id, models[i] ?? null])) };
}

/** Each author as a rater with a name to show. */
async function ratersOf(
  prisma: PrismaClient,
  projectId: string,
  authors: readonly { authorId: string; authorKind: SpanRaterKind }[],
): Promise<SpanRater[]> {
  const people = authors.filter((a) => a.authorKind === "reviewer" || a.authorKind === "label_set");
  const [infos, runs] = await Promise.all([
    reviewerInfo(
      prisma,
      people.map((a) => a.authorId),
    ),
    authors.some((a) => a.authorKind === "judge") ? scopeRuns(prisma, projectId, null) : [],
  ]);
  const names = new Map(infos.map((i) => [i.id, i.label]));
  const runNames = new Map(
    runs.map((r) => [`run:${r.id}`, `Judge: ${r.label ?? `${r.endpointName} (${r.createdAt.slice(0, 10)})`}`]),
  );
  return authors.map((a) => ({
    id: a.authorId,
    kind: a.authorKind,
    label:
      a.authorKind === "gold"
        ? "Gold"
        : a.authorKind === "judge"
          ? (runNames.get(a.authorId) ?? a.authorId)
          : (names.get(a.authorId) ?? a.authorId),
  }));
}

/** The task's declared span labels, then any other label its spans carry; 400 for an unknown task. */
async function labelsOf(
  prisma: PrismaClient,
  projectId: string,
  task: string,
  catalogue: { findTask(id: string): TaskDeclaration | null },
  used: ReadonlySet<string>,
) {
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { spanLabels: true } });
  const declared = spanLabelsFor(task, catalogue, projectSpanLabels(project.spanLabels));
  if (!declared) throw new ValidationError(`task: "${task}" is not a task of this project.`);
  const known = new Set(declared.map((l) => l.id));
  const others = [...used].filter((l) => !known.has(l)).sort();
  return {
    labels: [...declared.map((l) => ({ id: l.id, label: l.label })), ...others.map((id) => ({ id, label: id }))],
    /** Whether a label no declaration names is listed: it goes with its last span. */
    undeclared: others.length > 0,
  };
}

/** The scope of a request the caller may read (`export.read`), once the run is checked to judge the task. */
export async function checkedScope(
  prisma: PrismaClient,
  projectId: string,
  query: Omit<SpanAgreementQuery, "format">,
): Promise<Scope> {
  const scope: Scope = { projectId, task: query.task, runId: query.runId ?? null };
  if (scope.runId) {
    const run = await prisma.judgeRun.findFirst({ where: { id: scope.runId, projectId }, select: { pipeline: true } });
    if (!run) throw new NotFoundError("No such run in this project.");
    if (run.pipeline !== scope.task)
      throw new ValidationError(`runId: the run judges "${run.pipeline}", not the task "${scope.task}".`);
  }
  return scope;
}

interface InputBesideSpans {
  label: string | null;
  /** Whether the labels include one only spans name (labelsOf). */
  undeclaredLabels: boolean;
  /** Everything span agreement reads but the spans. */
  base: Omit<SpanAgreementInput, "spans">;
  /** Each looked-at video's generator (`video.model`; null: none). */
  generators: ReadonlyMap<string, string | null>;
}

/**
 * What span agreement reads besides the spans, from what the spans say; withheld while the viewer reviews blind (no
 * viewer: the keeper's report, shown to no one until a request checks its viewer).
 */
async function inputBesideSpans(
  prisma: PrismaClient,
  viewer: Actor | null,
  scope: Scope,
  query: Omit<SpanAgreementQuery, "format">,
  catalogue: SpanAgreementCatalogue,
  facts: SpanFacts,
): Promise<InputBesideSpans> {
  const { labels, undeclared } = await labelsOf(prisma, scope.projectId, scope.task, catalogue, facts.used);
  const label = query.label ?? null;
  if (label !== null && !labels.some((l) => l.id === label))
    throw new ValidationError(`label: "${label}" is not a span label of the task "${scope.task}".`);
  // Who looked at which video reads every label's spans: one label's report compares the same videos as the whole.
  // A run of a task that never says where (a rubric without localising criteria) is no rater of where.
  const pipelines = catalogue.pipelines;
  const judgesSayWhere = !pipelines || (Object.hasOwn(pipelines, scope.task) && !!pipelines[scope.task]?.judgeSpans);
  const covered = await coverage(prisma, scope, facts, judgesSayWhere);
  const authors = raterKinds(facts, covered.keys());
  const looked = new Set<string>();
  for (const videos of covered.values()) for (const video of videos) looked.add(video);
  const videoIds = [...looked];
  const blind = viewer ? await blindVideoIdsFor(prisma, viewer.userId) : new Set<string>();
  if (viewer && blind.size > 0) {
    const held = videoIds.filter((v) => blind.has(v));
    await requireWholeView(prisma, viewer.userId, held, "This span agreement");
  }
  const [videos, raters] = await Promise.all([
    videoFacts(prisma, scope.projectId, videoIds),
    ratersOf(
      prisma,
      scope.projectId,
      authors.map(([authorId, authorKind]) => ({ authorId, authorKind })),
    ),
  ]);
  return {
    label,
    undeclaredLabels: undeclared,
    base: {
      labels: label === null ? labels : labels.filter((l) => l.id === label),
      raters,
      coverage: covered,
      frameCounts: videos.frames,
    },
    generators: videos.generators,
  };
}

const spansOfLabel = (spans: LoadedSpan[], label: string | null) =>
  label === null ? spans : spans.filter((s) => s.label === label);

/** What span agreement reads for a checked scope, loaded whole, or withheld while the caller reviews blind. */
export async function scopedSpanAgreementInput(
  prisma: PrismaClient,
  viewer: Actor | null,
  scope: Scope,
  query: Omit<SpanAgreementQuery, "format">,
  catalogue: SpanAgreementCatalogue,
): Promise<InputBesideSpans & { facts: SpanFacts; input: SpanAgreementInput }> {
  const all = await spanRows(prisma, scope, null);
  const facts = spanFacts(all);
  const beside = await inputBesideSpans(prisma, viewer, scope, query, catalogue, facts);
  return { ...beside, facts, input: { ...beside.base, spans: spansOfLabel(all, beside.label) } };
}

interface KeptReport {
  /** The project's span revision read before the spans the report was computed from. */
  revision: string;
  facts: SpanFacts;
  beside: InputBesideSpans;
  /** Every pair's rows: a write to some videos matches those again (rematch.ts). */
  matched: MatchedPairs;
  result: SpanAgreementResult;
  byGenerator: SpanGeneratorAgreement[];
}

/**
 * A few scopes' last reports. Each holds its matching, for 50,000 videos and three pairs of raters some 50 MB of
 * rows, and who looked at which video: four scopes at most.
 */
const keptReports = new LastKept<KeptReport>(4);

/** Stores each new kept report for the next process (span-agreement-snapshot.ts). */
const snapshots = new SnapshotWriter();

/**
 * The kept facts with the written videos' own (`written`: what their spans say now), or null when the authors or the
 * labels they use changed: the raters and the rows' labels are then read afresh.
 */
function patchedFacts(kept: SpanFacts, written: ReadonlySet<string>, now: SpanFacts): SpanFacts | null {
  for (const author of now.kinds.keys()) if (!kept.kinds.has(author)) return null;
  for (const label of now.used) if (!kept.used.has(label)) return null;
  const marked = new Map<string, ReadonlySet<string>>();
  for (const [author, videos] of kept.marked) {
    // An author with no span on a written video, before or now, keeps the same videos: the kept set is never changed.
    if (!now.marked.has(author) && ![...written].some((v) => videos.has(v))) {
      marked.set(author, videos);
      continue;
    }
    const still = new Set([...videos].filter((v) => !written.has(v)));
    for (const video of now.marked.get(author) ?? []) still.add(video);
    if (still.size === 0) return null; // the author's last span went: no longer a rater by their spans
    marked.set(author, still);
  }
  return { kinds: kept.kinds, marked, used: kept.used };
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The videos whose inputs besides their spans differ between a kept report's and now (who looked at them, their
 * frame count, their generator), or null when something every video reads changed: the labels, the raters and their
 * names, which videos have a known frame count.
 */
function changedBesideSpans(kept: InputBesideSpans, now: InputBesideSpans): Set<string> | null {
  if (!sameValue(kept.base.labels, now.base.labels) || !sameValue(kept.base.raters, now.base.raters)) return null;
  const changed = new Set<string>();
  const { frameCounts } = now.base;
  if (frameCounts.size !== kept.base.frameCounts.size) return null;
  for (const [video, frames] of frameCounts) {
    const before = kept.base.frameCounts.get(video);
    if (before === undefined) return null;
    if (before !== frames) changed.add(video);
  }
  const none = new Set<string>();
  for (const rater of new Set([...kept.base.coverage.keys(), ...now.base.coverage.keys()])) {
    const [before, after] = [kept.base.coverage.get(rater) ?? none, now.base.coverage.get(rater) ?? none];
    if (before === after) continue;
    for (const video of after) if (!before.has(video)) changed.add(video);
    for (const video of before) if (!after.has(video)) changed.add(video);
  }
  for (const [video, generator] of now.generators) if (kept.generators.get(video) !== generator) changed.add(video);
  for (const video of kept.generators.keys()) if (!now.generators.has(video)) changed.add(video);
  return changed;
}

/**
 * The most videos matched again, or half the videos when that is more: their spans are read by id (an array
 * parameter); past it, every span is read in one scan and matched.
 */
const REMATCH_AT_MOST = 500;

/**
 * How a report was had: as kept, with the changed videos matched again, cut from the report of every label (one
 * label's), from every span.
 */
type Computed = { kept: KeptReport; how: "kept" | "rematched" | "cut" | "computed"; videosMatched: number };

/** A checked request for a report, with the project's span revision read before any span. */
interface ReportRequest {
  prisma: PrismaClient;
  /** Whose blind review withholds the report; null for the keeper's (keepSpanAgreementReport). */
  viewer: Actor | null;
  scope: Scope;
  query: Omit<SpanAgreementQuery, "format">;
  catalogue: SpanAgreementCatalogue;
  options: SpanAgreementOptions;
  revision: string;
}

/**
 * The report from a kept one of the same scope: itself while nothing it read changed, else with the videos written
 * since (their spans' revision, span_video_revision) and those whose other inputs changed matched again and the
 * bootstrap run again where they count (the whole, and the generators they belong to). Null when it cannot be: the
 * raters, the labels or the videos with a frame count changed, or too many videos did.
 */
async function fromKept(request: ReportRequest, kept: KeptReport): Promise<Computed | null> {
  const { prisma, viewer, scope, query, catalogue, options, revision } = request;
  const limit = Math.max(REMATCH_AT_MOST, kept.matched.videoIds.length / 2);
  const written = kept.revision === revision ? [] : await videosWrittenSince(prisma, scope.projectId, kept.revision);
  if (written.length > limit) return null;
  if (written.length > 0 && kept.beside.undeclaredLabels) return null;
  const writtenSpans = written.length > 0 ? await spanRows(prisma, scope, written) : [];
  const writtenSet = new Set(written);
  const facts = patchedFacts(kept.facts, writtenSet, spanFacts(writtenSpans));
  if (!facts) return null;
  // Checks blind review, and reads what else changed, on every request.
  const beside = await inputBesideSpans(prisma, viewer, scope, query, catalogue, facts);
  const changed = changedBesideSpans(kept.beside, beside);
  if (!changed || changed.size + written.length > limit) return null;
  if (changed.size === 0 && written.length === 0)
    return { kept: { ...kept, revision, beside }, how: "kept", videosMatched: 0 };
  const others = [...changed].filter((v) => !writtenSet.has(v));
  for (const video of written) changed.add(video);
  const spans = spansOfLabel(
    [...writtenSpans, ...(others.length > 0 ? await spanRows(prisma, scope, others) : [])],
    beside.label,
  );
  const rowLabels = new Set(kept.matched.labels.map((l) => l.id));
  if (spans.some((s) => !rowLabels.has(s.label))) return null; // a label's first span: the rows widen
  const matched = rematchVideos(kept.matched, { ...beside.base, spans }, changed);
  const comparisons = comparisonsOfPairs(matched);
  const result = agreementOfMatched(comparisons, options);
  const touched = new Set(
    [...changed].flatMap((v) => [kept.beside.generators.get(v) ?? null, beside.generators.get(v) ?? null]),
  );
  const keptByGenerator = new Map(kept.byGenerator.map((g) => [g.generator, g]));
  const byGenerator = byGeneratorOf(comparisons, beside.base, beside.generators, options, result, (generator) =>
    touched.has(generator) ? undefined : keptByGenerator.get(generator),
  );
  return {
    kept: { revision, facts, beside, matched, result, byGenerator },
    how: "rematched",
    videosMatched: changed.size,
  };
}

/** A scope's kept report: this process's, else the one an earlier process stored; with where it was. */
async function keptReportOf(
  prisma: PrismaClient,
  projectId: string,
  key: string,
): Promise<{ kept: KeptReport; keptIn: "process" | "database" } | null> {
  const inProcess = keptReports.get(key);
  if (inProcess) return { kept: inProcess, keptIn: "process" };
  const stored = await readSnapshot<KeptReport>(prisma, { projectId, scope: key });
  return stored && { kept: stored, keptIn: "database" };
}

/**
 * Keeps a scope's new report in the process and stores it for the next; settles once stored. A report kept as it was,
 * at the same revision, is stored already (or its write failed and is not tried again).
 */
function keepReport(
  prisma: PrismaClient,
  projectId: string,
  key: string,
  revision: string,
  done: Computed,
  kept: KeptReport | null,
): Promise<void> {
  keptReports.set(key, done.kept);
  if (done.how === "kept" && kept?.revision === revision) return Promise.resolve();
  return snapshots.save(prisma, { projectId, scope: key }, revision, done.kept);
}

/**
 * One label's report cut from the kept or stored report of every label of the same scope, brought up to date first
 * (fromKept; it is kept and stored again): a label's report compares the same videos, and each video's counts of a
 * label depend on that label's spans alone (matchedOfLabel), so it equals the label's report computed from its spans.
 * Null when there is no such report, or it cannot be brought up to date.
 */
async function cutFromWhole(
  request: ReportRequest,
  label: string,
): Promise<{ done: Computed; keptIn: "process" | "database" } | null> {
  const { prisma, scope, options, revision } = request;
  const key = keptReportKey(scope, null, options);
  const whole = await keptReportOf(prisma, scope.projectId, key);
  if (!whole) return null;
  const updated = await fromKept({ ...request, query: { ...request.query, label: undefined } }, whole.kept);
  if (!updated) return null;
  void keepReport(prisma, scope.projectId, key, revision, updated, whole.kept);
  const { facts, beside: all, matched: allMatched } = updated.kept;
  if (!all.base.labels.some((l) => l.id === label))
    throw new ValidationError(`label: "${label}" is not a span label of the task "${scope.task}".`);
  const beside = { ...all, label, base: { ...all.base, labels: all.base.labels.filter((l) => l.id === label) } };
  const matched = matchedOfLabel(allMatched, label);
  const comparisons = comparisonsOfPairs(matched);
  const result = agreementOfMatched(comparisons, options);
  const byGenerator = byGeneratorOf(comparisons, beside.base, beside.generators, options, result);
  return {
    done: { kept: { revision, facts, beside, matched, result, byGenerator }, how: "cut", videosMatched: 0 },
    keptIn: whole.keptIn,
  };
}

/** The report of a checked scope computed from every span. */
async function computed(request: ReportRequest): Promise<Computed> {
  const { prisma, viewer, scope, query, catalogue, options, revision } = request;
  const { facts, input, ...beside } = await scopedSpanAgreementInput(prisma, viewer, scope, query, catalogue);
  const matched = matchPairs(input, markedLabels(input));
  const comparisons = comparisonsOfPairs(matched);
  const result = agreementOfMatched(comparisons, options);
  const byGenerator = byGeneratorOf(comparisons, input, beside.generators, options, result);
  return {
    kept: { revision, facts, beside, matched, result, byGenerator },
    how: "computed",
    videosMatched: matched.videoIds.length,
  };
}

/** How a report was had, beside itself. */
export interface SpanAgreementReportRun extends Omit<Computed, "kept"> {
  report: SpanAgreementReport;
  /** Where the kept report it started from was: this process's memory, the database (a stored snapshot), none. */
  keptIn: "process" | "database" | null;
  /** Settles once a new kept report is stored for the next process (at once when none is new); never rejects. */
  stored: Promise<void>;
}

/**
 * The span agreement report of a task, and how it was had: from the report kept for the same scope and options (in
 * this process, else stored by an earlier one) when nothing it read changed, from it with the changed videos matched
 * again when few did, else from every span. A new kept report is stored after the caller is answered.
 */
export async function spanAgreementReport(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  query: Omit<SpanAgreementQuery, "format">,
  catalogue: SpanAgreementCatalogue,
  options: SpanAgreementOptions = {},
): Promise<SpanAgreementReportRun> {
  const { actor, projectId } = access;
  const scope = await checkedScope(prisma, projectId, query);
  const { done, keptIn, stored } = await reportOf({ prisma, viewer: actor, scope, query, catalogue, options });
  const { beside, result, byGenerator } = done.kept;
  return {
    report: { task: scope.task, runId: scope.runId, label: beside.label, ...result, byGenerator },
    how: done.how,
    videosMatched: done.videosMatched,
    keptIn,
    stored,
  };
}

/** A scope's report, kept in the process and stored for the next; from the kept or stored one when it can be. */
async function reportOf(request: Omit<ReportRequest, "revision">) {
  const { prisma, scope, query, options } = request;
  const { projectId } = scope;
  const key = keptReportKey(scope, query.label ?? null, options);
  // Read before the spans: a report is kept at a revision no later than its spans, so a write after it shows.
  const revision = await spanRevision(prisma, projectId);
  const found = await keptReportOf(prisma, projectId, key);
  const kept = found?.kept ?? null;
  const label = query.label ?? null;
  const fromSame = kept && (await fromKept({ ...request, revision }, kept));
  const cut = !fromSame && label !== null ? await cutFromWhole({ ...request, revision }, label) : null;
  const done = fromSame || cut?.done || (await computed({ ...request, revision }));
  const stored = keepReport(prisma, projectId, key, revision, done, kept);
  const keptIn: SpanAgreementReportRun["keptIn"] =
    cut?.done === done ? cut.keptIn : !found || done.how === "computed" ? null : found.keptIn;
  return { done, keptIn, stored };
}

/**
 * Brings the stored report of a scope (a task, optionally one run; every label, the default bootstrap) to the
 * project's span revision, as a request would (span-agreement-keeper.ts): from the kept or stored one when it can be,
 * else from every span. No one is shown it, so no one's blind review is checked: each request checks its viewer's.
 * Settles once the report is stored.
 */
export async function keepSpanAgreementReport(
  prisma: PrismaClient,
  projectId: string,
  query: { task: string; runId?: string },
  catalogue: SpanAgreementCatalogue,
  options: SpanAgreementOptions = {},
): Promise<Omit<SpanAgreementReportRun, "report" | "stored">> {
  const scope = await checkedScope(prisma, projectId, query);
  const { done, keptIn, stored } = await reportOf({ prisma, viewer: null, scope, query, catalogue, options });
  await stored;
  return { how: done.how, videosMatched: done.videosMatched, keptIn };
}

/**
 * The span agreement report of a task (every member may read it, `export.read`), or withheld while they review blind.
 * Kept per scope: answered again while nothing it read changed, and after a write to a few videos only those are
 * matched again (spanAgreementReport).
 */
export async function projectSpanAgreement(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  query: Omit<SpanAgreementQuery, "format">,
  catalogue: SpanAgreementCatalogue,
  options: SpanAgreementOptions = {},
): Promise<SpanAgreementReport> {
  return (await spanAgreementReport(prisma, access, query, catalogue, options)).report;
}
