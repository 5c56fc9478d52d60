/**
 * Exporting spans: the project's spans that count (not withdrawn), narrowed by task, label and author, in one of the
 * span file formats the table writes (span-file-formats.ts). Whole or withheld: while the caller reviews any video of
 * the project blind, every span export is a 409 that says why (the spans of others and of the judge are hidden from
 * them there), so a file never differs with who downloads it. The decision is taken on the project's videos before
 * any filter: were it taken on the rows a filter matched, a 409 against a 200 would tell a blind reviewer whether
 * someone marked that label on their blind videos.
 */
import type { PrismaClient, Span } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { exportFileName } from "../../agreement/export-file-name";
import { parseLabelSetReviewerId } from "../../label-sets/label-set-reviewer";
import type { ObjectStorage } from "../../storage/object-storage";
import { blindVideoIdsFor } from "../../visibility/judge-visibility";
import { requireWholeView } from "../../visibility/withheld";
import type { FrameTimes } from "../../frames/frame-times";
import type { BoxKeyframe } from "../span-types";
import { videoFrameTimes } from "../../videos/video-frame-times";
import { projectSpanLabels, type SpanLabel, spanLabelsFor } from "../span-labels";
import type { SpanTaskLookup } from "../span-store";
import { type LabelStudioLabel, labelStudioLocalFileUrl, type LabelStudioVideo } from "./label-studio-spans";
import { type SpanExportSources, spanWriteFormat } from "./span-file-formats";
import type { ExportSpan } from "./span-file-types";

export interface SpanExportFilter {
  task?: string | undefined;
  label?: string | undefined;
  /** An author id: a user id, `labelset:<id>[:<annotator>]`, `run:<id>` or `gold`. */
  author?: string | undefined;
  /** A label set's id: its spans, whichever annotator. */
  labelSet?: string | undefined;
}

/** The annotator a span is written with: a label set's annotator column, a reviewer's email, else its author id. */
function annotatorOf(span: Pick<Span, "authorKind" | "authorId">, emails: ReadonlyMap<string, string>): string {
  if (span.authorKind === "label_set") return parseLabelSetReviewerId(span.authorId)?.annotator ?? "";
  if (span.authorKind === "reviewer") return emails.get(span.authorId) ?? span.authorId;
  return span.authorId;
}

/**
 * Refuses the export (409 `withheld`) while the caller reviews any of the project's videos blind: decided on the
 * project's videos alone, never on which spans the filter matches, so the answer and its counts are the same for
 * every filter.
 */
async function requireNoBlindVideoOfProject(prisma: PrismaClient, userId: string, projectId: string): Promise<void> {
  const blind = await blindVideoIdsFor(prisma, userId);
  if (blind.size === 0) return;
  const held = await prisma.video.findMany({ where: { projectId, id: { in: [...blind] } }, select: { id: true } });
  await requireWholeView(
    prisma,
    userId,
    held.map((v) => v.id),
    "This span export",
  );
}

/** The filtered spans of the project, in video, time and author order, as the writers read them. */
export async function exportSpans(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  filter: SpanExportFilter,
): Promise<ExportSpan[]> {
  const { actor, projectId } = access;
  await requireNoBlindVideoOfProject(prisma, actor.userId, projectId);
  const rows = await prisma.span.findMany({
    where: {
      projectId,
      withdrawn: false,
      ...(filter.task ? { task: filter.task } : {}),
      ...(filter.label ? { label: filter.label } : {}),
      ...(filter.author ? { authorId: filter.author } : {}),
      ...(filter.labelSet ? { labelSetId: filter.labelSet } : {}),
    },
    orderBy: [{ videoId: "asc" }, { startFrame: "asc" }, { endFrame: "asc" }, { authorId: "asc" }, { id: "asc" }],
    include: { video: { select: { relativePath: true, fileName: true } } },
  });
  const reviewers = [...new Set(rows.filter((r) => r.authorKind === "reviewer").map((r) => r.authorId))];
  const users = await prisma.user.findMany({ where: { id: { in: reviewers } }, select: { id: true, email: true } });
  const emails = new Map(users.map((u) => [u.id, u.email]));
  return rows.map((r) => ({
    videoId: r.videoId,
    videoPath: r.video.relativePath,
    fileName: r.video.fileName,
    task: r.task,
    label: r.label,
    annotator: annotatorOf(r, emails),
    authorKind: r.authorKind,
    startFrame: r.startFrame,
    endFrame: r.endFrame,
    startS: r.startS,
    endS: r.endS,
    boxes: r.boxes as unknown as BoxKeyframe[],
    note: r.note,
  }));
}

/** The videos of the spans with their frame counts and times, for Label Studio's tasks. */
async function labelStudioVideos(
  deps: { prisma: PrismaClient; storage: ObjectStorage },
  spans: readonly ExportSpan[],
): Promise<LabelStudioVideo[]> {
  const ids = [...new Set(spans.map((s) => s.videoId))];
  const stored = await deps.prisma.videoFrameTimes.findMany({ where: { videoId: { in: ids } } });
  const times = new Map<string, FrameTimes>(stored.map((t) => [t.videoId, t]));
  const out: LabelStudioVideo[] = [];
  for (const id of ids) {
    const span = spans.find((s) => s.videoId === id)!;
    let own = times.get(id);
    if (!own) {
      const video = await deps.prisma.video.findUniqueOrThrow({
        where: { id },
        select: { id: true, storageKey: true },
      });
      own = await videoFrameTimes(deps, video);
    }
    out.push({
      videoId: id,
      url: labelStudioLocalFileUrl(span.videoPath),
      path: span.videoPath,
      frameCount: own.timesS.length,
      durationS: own.endS,
      timesS: own.timesS,
    });
  }
  return out;
}

const naturalOrder = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

/**
 * The config's labels: each task's (sorted by id) in the task's own order (its categories s1, s2, … s10), with their
 * names; a label its task no longer has follows, in natural order.
 */
async function configLabels(
  prisma: PrismaClient,
  projectId: string,
  catalogue: SpanTaskLookup,
  spans: readonly ExportSpan[],
): Promise<LabelStudioLabel[]> {
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { spanLabels: true } });
  const projectLabels = projectSpanLabels(project.spanLabels);
  const used = new Map<string, Set<string>>();
  for (const span of spans) used.set(span.task, (used.get(span.task) ?? new Set()).add(span.label));
  const out = new Map<string, LabelStudioLabel>();
  for (const task of [...used.keys()].sort(naturalOrder)) {
    const labels = used.get(task)!;
    const declared: SpanLabel[] = spanLabelsFor(task, catalogue, projectLabels) ?? [];
    for (const label of declared)
      if (labels.has(label.id) && !out.has(label.id)) out.set(label.id, { id: label.id, name: label.label });
    for (const id of [...labels].sort(naturalOrder)) if (!out.has(id)) out.set(id, { id, name: id });
  }
  return [...out.values()];
}

/** The export as a file: its body, content type and name; `format` a format the table writes, else a 400. */
export async function spanExportFile(
  deps: { prisma: PrismaClient; storage: ObjectStorage },
  access: ProjectAccess<"export.read">,
  format: string,
  filter: SpanExportFilter,
  catalogue: SpanTaskLookup,
): Promise<{ body: string; contentType: string; fileName: string }> {
  const { projectId } = access;
  const spans = await exportSpans(deps.prisma, access, filter);
  const writer = spanWriteFormat(format).write;
  const project = await deps.prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true } });
  const sources: SpanExportSources = {
    videos: () => labelStudioVideos(deps, spans),
    labels: () => configLabels(deps.prisma, projectId, catalogue, spans),
  };
  return {
    body: await writer.body(spans, sources),
    contentType: `${writer.mediaType}; charset=utf-8`,
    fileName: exportFileName({
      project: project.name,
      what: writer.what,
      filter: { ...filter },
      date: new Date(),
      extension: writer.extension,
    }),
  };
}
