import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { AppError } from "../errors";
import { findProjectVideo } from "./frame-sets";
import type { VideoDeps } from "./register-video";
import type { VideoEditInput } from "./video-edits.validation";

/**
 * Changing what a video is after its import: its prompt, model, dimensions, seed, sample index and
 * extra fields. Every change is one transaction that updates the video and appends one `video_edit`
 * row (who, when, how, each changed field before and after); runs keep the fields they were created
 * with (run_video.judgedWith), so an edit changes neither their pending steps nor their records.
 */

/** The descriptive fields of a video that owners may change. */
export interface VideoFields {
  prompt: string | null;
  model: string | null;
  dimensions: string[];
  seed: string | null;
  sampleIndex: number | null;
  extra: Record<string, unknown>;
}

export const VIDEO_FIELD_SELECT = {
  prompt: true,
  model: true,
  dimensions: true,
  seed: true,
  sampleIndex: true,
  extra: true,
} as const;

/** "edit": the video page or `PATCH /api/v1/videos/:id`; "metadata"/"prompt_list": files imported after the video. */
export type VideoEditSource = "edit" | "metadata" | "prompt_list" | "metadata+prompt_list";

export interface FieldChange {
  /** `prompt`, `model`, `dimensions`, `seed`, `sampleIndex`, or `extra.<key>` for one extra field. */
  field: string;
  before: unknown;
  after: unknown;
  /** The field held a value that the change replaces (or clears): shown, and confirmed before it is applied. */
  overwrite: boolean;
}

function isSet(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => item === b[i]);
  return (a ?? null) === (b ?? null);
}

export function asExtra(value: Prisma.JsonValue | Record<string, unknown>): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** What changes from `current` to `next`, field by field (extra fields one key at a time). */
export function diffVideoFields(current: VideoFields, next: VideoFields): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of ["prompt", "model", "dimensions", "seed", "sampleIndex"] as const) {
    if (!same(current[field], next[field]))
      changes.push({ field, before: current[field], after: next[field], overwrite: isSet(current[field]) });
  }
  const keys = [...new Set([...Object.keys(current.extra), ...Object.keys(next.extra)])].sort();
  for (const key of keys) {
    // Extra keys are imported text: `constructor` absent from a video is absent, not Object's constructor.
    const before = Object.hasOwn(current.extra, key) ? (current.extra[key] ?? null) : null;
    const after = Object.hasOwn(next.extra, key) ? (next.extra[key] ?? null) : null;
    if (!same(before, after)) changes.push({ field: `extra.${key}`, before, after, overwrite: isSet(before) });
  }
  return changes;
}

type Tx = Prisma.TransactionClient;

/** Writes `next` to the video and appends its edit; nothing when nothing changed. */
export async function writeVideoEdit(
  tx: Tx,
  video: { id: string } & VideoFields,
  next: VideoFields,
  editorId: string,
  source: VideoEditSource,
) {
  const changes = diffVideoFields(video, next);
  if (changes.length === 0) return { changes, editId: null };
  const changed = (field: keyof VideoFields) =>
    changes.some((c) => c.field === field || (field === "extra" && c.field.startsWith("extra.")));
  await tx.video.update({
    where: { id: video.id },
    data: {
      ...(changed("prompt") ? { prompt: next.prompt, matchedPrompt: next.prompt !== null } : {}),
      ...(changed("model") ? { model: next.model } : {}),
      ...(changed("dimensions") ? { dimensions: next.dimensions } : {}),
      ...(changed("seed") ? { seed: next.seed } : {}),
      ...(changed("sampleIndex") ? { sampleIndex: next.sampleIndex } : {}),
      ...(changed("extra") ? { extra: next.extra as Prisma.InputJsonValue } : {}),
    },
  });
  const edit = await tx.videoEdit.create({
    data: {
      videoId: video.id,
      editorId,
      source,
      before: Object.fromEntries(changes.map((c) => [c.field, c.before ?? null])) as Prisma.InputJsonValue,
      after: Object.fromEntries(changes.map((c) => [c.field, c.after ?? null])) as Prisma.InputJsonValue,
    },
  });
  return { changes, editId: edit.id };
}

/** An owner's edit of one video: checked, written with its history entry in one transaction. */
export async function editVideo(
  deps: VideoDeps,
  access: ProjectAccess<"videos.edit">,
  videoId: string,
  input: VideoEditInput,
) {
  await findProjectVideo(deps, access, videoId);
  return deps.prisma.$transaction(async (tx) => {
    // The row lock orders two edits of the same video: each diffs against what the other wrote.
    const [locked] = await tx.$queryRaw<
      { updatedAt: Date }[]
    >`SELECT "updatedAt" FROM video WHERE id = ${videoId} FOR UPDATE`;
    if (!locked) throw new AppError(404, "not_found", "No such video.");
    if (input.expectedUpdatedAt && new Date(input.expectedUpdatedAt).getTime() !== locked.updatedAt.getTime()) {
      throw new AppError(
        409,
        "conflict",
        "The video changed since you opened it; reload to see the change, then edit again.",
        { updatedAt: locked.updatedAt.toISOString() },
      );
    }
    const video = await tx.video.findUniqueOrThrow({
      where: { id: videoId },
      select: { id: true, ...VIDEO_FIELD_SELECT },
    });
    const current: VideoFields = { ...video, extra: asExtra(video.extra) };
    const next: VideoFields = {
      prompt: input.prompt !== undefined ? input.prompt : current.prompt,
      model: input.model !== undefined ? input.model : current.model,
      dimensions: input.dimensions ?? current.dimensions,
      seed: input.seed !== undefined ? input.seed : current.seed,
      sampleIndex: input.sampleIndex !== undefined ? input.sampleIndex : current.sampleIndex,
      extra: input.extra ?? current.extra,
    };
    const { changes, editId } = await writeVideoEdit(
      tx,
      { ...current, id: videoId },
      next,
      access.actor.userId,
      "edit",
    );
    const updated = await tx.video.findUniqueOrThrow({ where: { id: videoId } });
    return { video: updated, changes, editId };
  });
}

/** A video's edits, newest first, with the editor's email (every member may read them). */
export async function videoEditHistory(prisma: PrismaClient, access: ProjectAccess, videoId: string) {
  await findProjectVideo({ prisma }, access, videoId);
  const edits = await prisma.videoEdit.findMany({ where: { videoId }, orderBy: [{ at: "desc" }, { id: "desc" }] });
  const editors = await prisma.user.findMany({
    where: { id: { in: [...new Set(edits.map((e) => e.editorId))] } },
    select: { id: true, email: true },
  });
  const emailOf = new Map(editors.map((u) => [u.id, u.email]));
  return edits.map((edit) => ({
    id: edit.id,
    at: edit.at,
    source: edit.source,
    editor: { id: edit.editorId, email: emailOf.get(edit.editorId) ?? null },
    before: edit.before as Record<string, unknown>,
    after: edit.after as Record<string, unknown>,
  }));
}
