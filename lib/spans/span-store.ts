/**
 * Saving and reading spans. A reviewer marks, edits and withdraws their own spans; every change appends to the span's
 * history and names the version it edits, so a second tab or a second reviewer gets a 409 with the current span
 * instead of overwriting it. Importers and judge runs write many at once with insertSpans, in their own transaction.
 */
import type { Prisma, PrismaClient, Span } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { type ProjectAccess, roleCan } from "../authz/permissions";
import { AppError, ForbiddenError, NotFoundError, ValidationError } from "../errors";
import type { ObjectStorage } from "../storage/object-storage";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { isBlindFor } from "../visibility/judge-visibility";
import type { FrameTimes } from "../frames/frame-times";
import { projectSpanLabels, type SpanLabel, spanLabelsFor } from "./span-labels";
import type { BoxKeyframe, SpanAuthorKind, SpanFields, SpanRecord } from "./span-types";
import { framesOfInput, secondsOf, type SpanInput, spanProblem, type SpanUpdate, sortedBoxes } from "./span-validation";
import { videoFrameTimes } from "../videos/video-frame-times";

/** Where a span's task is looked up: the request's declarations (the built-in tasks and the project's rubrics). */
export type SpanTaskLookup = { findTask(id: string): TaskDeclaration | null };

export interface SpanDeps {
  prisma: PrismaClient;
  storage: ObjectStorage;
}

/** Saves raced, or a second tab edited an older version: nothing was overwritten. */
export class SpanConflictError extends AppError {
  constructor(current: SpanRecord) {
    super(
      409,
      "conflict",
      `This span was changed elsewhere (now version ${current.version}). Reload it, then save again.`,
      {
        current,
      },
    );
  }
}

export function spanRecord(row: Span): SpanRecord {
  return {
    id: row.id,
    videoId: row.videoId,
    task: row.task,
    label: row.label,
    itemId: row.itemId,
    startFrame: row.startFrame,
    endFrame: row.endFrame,
    startS: row.startS,
    endS: row.endS,
    boxes: row.boxes as unknown as BoxKeyframe[],
    note: row.note,
    authorKind: row.authorKind as SpanAuthorKind,
    authorId: row.authorId,
    runId: row.runId,
    labelSetId: row.labelSetId,
    queueId: row.queueId,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What history keeps of a span's state. */
function historyState(span: SpanFields & { withdrawn?: boolean }): Prisma.InputJsonObject {
  return {
    label: span.label,
    startFrame: span.startFrame,
    endFrame: span.endFrame,
    boxes: span.boxes as unknown as Prisma.InputJsonArray,
    note: span.note,
    ...(span.withdrawn ? { withdrawn: true } : {}),
  };
}

/** The labels and frame times a span of this video and task is checked against. */
export async function spanContextOf(
  deps: SpanDeps,
  catalogue: SpanTaskLookup,
  video: { id: string; projectId: string; storageKey: string },
  task: string,
): Promise<{ times: FrameTimes; labels: SpanLabel[] }> {
  const project = await deps.prisma.project.findUniqueOrThrow({
    where: { id: video.projectId },
    select: { spanLabels: true },
  });
  const labels = spanLabelsFor(task, catalogue, projectSpanLabels(project.spanLabels));
  if (!labels) throw new ValidationError(`"${task}" is not a task of this project.`);
  return { times: await videoFrameTimes(deps, video), labels };
}

/** A checked span's fields from a client's input (frames, or seconds converted with the frame times). */
export function checkedSpan(
  input: SpanInput,
  context: { times: FrameTimes; labels: readonly SpanLabel[] },
): SpanFields & { startS: number; endS: number } {
  const frames = framesOfInput(input, context.times);
  if (typeof frames === "string") throw new ValidationError(frames);
  const fields: SpanFields = {
    task: input.task,
    label: input.label,
    itemId: input.itemId,
    ...frames,
    boxes: sortedBoxes(input.boxes),
    note: input.note,
  };
  const problem = spanProblem(fields, context);
  if (problem) throw new ValidationError(problem);
  return { ...fields, ...secondsOf(fields, context.times) };
}

/** The video's spans that count (not withdrawn), in time order; `task` narrows to one task's. */
export async function listVideoSpans(
  prisma: PrismaClient,
  videoId: string,
  options: { task?: string } = {},
): Promise<SpanRecord[]> {
  const rows = await prisma.span.findMany({
    where: { videoId, withdrawn: false, ...(options.task ? { task: options.task } : {}) },
    orderBy: [{ startFrame: "asc" }, { endFrame: "asc" }, { id: "asc" }],
  });
  return rows.map(spanRecord);
}

/** Marks a span as the caller (a reviewer of the project); a video of another project is not found. */
export async function createSpan(
  deps: SpanDeps,
  access: ProjectAccess<"scores.review">,
  video: { id: string; projectId: string; storageKey: string },
  input: SpanInput,
  options: { catalogue: SpanTaskLookup; queueId?: string | null },
): Promise<SpanRecord> {
  if (video.projectId !== access.projectId) throw new NotFoundError("No such video.");
  const { actor } = access;
  const span = checkedSpan(input, await spanContextOf(deps, options.catalogue, video, input.task));
  return deps.prisma.$transaction((tx) =>
    createOneSpan(tx, video, span, {
      authorKind: "reviewer",
      authorId: actor.userId,
      queueId: options.queueId ?? null,
      changedBy: actor.userId,
    }),
  );
}

/** Writes one checked span of the video with its first history entry, in the caller's transaction. */
export async function createOneSpan(
  tx: Prisma.TransactionClient,
  video: { id: string; projectId: string },
  span: ReturnType<typeof checkedSpan>,
  author: { authorKind: SpanAuthorKind; authorId: string; queueId?: string | null; changedBy: string },
): Promise<SpanRecord> {
  const { changedBy, ...authorFields } = author;
  const row = await tx.span.create({
    data: {
      projectId: video.projectId,
      videoId: video.id,
      ...span,
      boxes: span.boxes as unknown as Prisma.InputJsonArray,
      ...authorFields,
    },
  });
  await tx.spanHistory.create({ data: { spanId: row.id, changedBy, version: 1, after: historyState(span) } });
  return spanRecord(row);
}

/**
 * The caller's own span (gold spans: an adjudicator's), or a 404 that says nothing of anyone else's. A gold span of a
 * video the caller reviews blind is hidden from them as the video's other spans are (the same 404 its GET gives),
 * before any version is compared: a stale version's 409 would carry the span. A gold span is the adjudicators'
 * (`gold.set`, decided from the access's role); a span of another project is not found.
 */
async function ownSpan(prisma: PrismaClient, access: ProjectAccess<"scores.review">, spanId: string): Promise<Span> {
  const { actor } = access;
  const span = await prisma.span.findFirst({ where: { id: spanId, projectId: access.projectId } });
  const missing = new NotFoundError("No such span of yours.");
  if (!span || span.withdrawn) throw missing;
  if (span.authorKind !== "gold" && !(span.authorKind === "reviewer" && span.authorId === actor.userId)) throw missing;
  if (span.authorKind === "gold" && !roleCan(access.role, "gold.set"))
    throw new ForbiddenError(`Your role (${access.role}) may not do that in this project.`);
  if (span.authorKind === "gold" && (await isBlindFor(prisma, actor.userId, span.videoId))) throw missing;
  return span;
}

/** Applies a change to the caller's span at the version it names. */
export async function updateSpan(
  deps: SpanDeps,
  access: ProjectAccess<"scores.review">,
  spanId: string,
  update: SpanUpdate,
  catalogue: SpanTaskLookup,
): Promise<SpanRecord> {
  const span = await ownSpan(deps.prisma, access, spanId);
  if (update.expectedVersion !== span.version) throw new SpanConflictError(spanRecord(span));
  const video = await deps.prisma.video.findUniqueOrThrow({ where: { id: span.videoId } });
  const before = spanRecord(span);
  const input: SpanInput = {
    task: span.task,
    itemId: span.itemId,
    label: update.label ?? span.label,
    startFrame: update.startFrame ?? span.startFrame,
    endFrame: update.endFrame ?? span.endFrame,
    boxes: update.boxes ?? before.boxes,
    note: update.note ?? span.note,
  };
  const next = checkedSpan(input, await spanContextOf(deps, catalogue, video, span.task));
  return versionedWrite(
    deps.prisma,
    access.actor,
    before,
    {
      ...next,
      boxes: next.boxes as unknown as Prisma.InputJsonArray,
    },
    historyState(next),
  );
}

/** Withdraws the caller's span at the version it names: it counts nowhere; its history stays. */
export async function withdrawSpan(
  deps: SpanDeps,
  access: ProjectAccess<"scores.review">,
  spanId: string,
  expectedVersion: number,
): Promise<SpanRecord> {
  const span = await ownSpan(deps.prisma, access, spanId);
  const before = spanRecord(span);
  if (expectedVersion !== span.version) throw new SpanConflictError(before);
  return versionedWrite(deps.prisma, access.actor, before, { withdrawn: true }, { withdrawn: true });
}

async function versionedWrite(
  prisma: PrismaClient,
  actor: Actor,
  before: SpanRecord,
  data: Prisma.SpanUpdateManyMutationInput,
  after: Prisma.InputJsonObject,
): Promise<SpanRecord> {
  return prisma.$transaction(async (tx) => {
    const updated = await tx.span.updateMany({
      where: { id: before.id, version: before.version, withdrawn: false },
      data: { ...data, version: before.version + 1 },
    });
    if (updated.count === 0)
      throw new SpanConflictError(spanRecord(await tx.span.findUniqueOrThrow({ where: { id: before.id } })));
    await tx.spanHistory.create({
      data: {
        spanId: before.id,
        changedBy: actor.userId,
        version: before.version + 1,
        before: historyState(before),
        after,
      },
    });
    return spanRecord(await tx.span.findUniqueOrThrow({ where: { id: before.id } }));
  });
}

/** A span an importer or a judge run writes (already checked). */
export interface NewSpan extends SpanFields {
  projectId: string;
  videoId: string;
  startS: number;
  endS: number;
  authorKind: SpanAuthorKind;
  authorId: string;
  labelSetId?: string | null;
  runId?: string | null;
  queueId?: string | null;
}

/** Writes many checked spans with their first history entries, in the caller's transaction, in chunks. */
export async function insertSpans(tx: Prisma.TransactionClient, spans: readonly NewSpan[], changedBy: string) {
  const CHUNK = 2000;
  let written = 0;
  for (let i = 0; i < spans.length; i += CHUNK) {
    const rows = await tx.span.createManyAndReturn({
      data: spans.slice(i, i + CHUNK).map((s) => ({ ...s, boxes: s.boxes as unknown as Prisma.InputJsonArray })),
      select: {
        id: true,
        label: true,
        startFrame: true,
        endFrame: true,
        boxes: true,
        note: true,
        task: true,
        itemId: true,
      },
    });
    await tx.spanHistory.createMany({
      data: rows.map((row) => ({
        spanId: row.id,
        changedBy,
        version: 1,
        after: historyState({ ...row, boxes: row.boxes as unknown as BoxKeyframe[] }),
      })),
    });
    written += rows.length;
  }
  return written;
}

/** A span's history, oldest first. */
export async function spanHistory(prisma: PrismaClient, spanId: string) {
  return prisma.spanHistory.findMany({ where: { spanId }, orderBy: { version: "asc" } });
}
