/**
 * Gold spans: where the adjudicator (an owner, `gold.set`) says a label is, after reading the reviewers' spans
 * (lib/adjudication/span-adjudication.ts). A gold span is a span row like any other (authorKind "gold", authorId
 * GOLD_AUTHOR_ID), so it is changed and withdrawn with versioned saves and history through span-store's updateSpan
 * and withdrawSpan (a stale version is a 409 with the current span); this file makes one: drawn, or accepted from a
 * reviewer's (or a judge's, a label set's) span, whose frames, boxes and note it copies.
 */
import { z } from "zod";
import type { ProjectAccess } from "../authz/permissions";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { isBlindFor } from "../visibility/judge-visibility";
import { checkedSpan, createOneSpan, type SpanDeps, spanContextOf, spanRecord } from "./span-store";
import { GOLD_AUTHOR_ID, type SpanRecord } from "./span-types";
import { MAX_SPAN_NOTE, type SpanInput, spanInputSchema } from "./span-validation";

/** A gold span: drawn (a span's fields), or accepted from another span of the video (`fromSpanId`, optional note). */
export const goldSpanInputSchema = z.union([
  z
    .object({
      fromSpanId: z.string().min(1).max(64),
      note: z.string().max(MAX_SPAN_NOTE).optional(),
    })
    .strict(),
  spanInputSchema,
]);
export type GoldSpanInput = z.input<typeof goldSpanInputSchema>;

/** The span input a gold span is accepted from: the source span's fields, on this video, counted (not withdrawn). */
async function acceptedInput(
  deps: SpanDeps,
  videoId: string,
  fromSpanId: string,
  note: string | undefined,
): Promise<SpanInput> {
  const source = await deps.prisma.span.findUnique({ where: { id: fromSpanId } });
  if (!source || source.videoId !== videoId || source.withdrawn)
    throw new NotFoundError("No such span of this video to accept.");
  if (source.authorKind === "gold") throw new ValidationError("This span is gold already.");
  const record = spanRecord(source);
  return {
    task: record.task,
    label: record.label,
    itemId: record.itemId,
    startFrame: record.startFrame,
    endFrame: record.endFrame,
    boxes: record.boxes,
    note: note ?? record.note,
  };
}

/**
 * Sets a gold span on the video (owners): checked as any span (inside the video, a label of its task, boxes inside
 * the frame), written with its first history entry naming the adjudicator. An owner who reviews the video blind
 * cannot: they would be judging from the spans it hides from them. A video of another project is not found.
 */
export async function createGoldSpan(
  deps: SpanDeps,
  access: ProjectAccess<"gold.set">,
  video: { id: string; projectId: string; storageKey: string },
  raw: GoldSpanInput,
  catalogue: Parameters<typeof spanContextOf>[1],
): Promise<SpanRecord> {
  if (video.projectId !== access.projectId) throw new NotFoundError("No such video.");
  const { actor } = access;
  const parsed = goldSpanInputSchema.parse(raw);
  if (await isBlindFor(deps.prisma, actor.userId, video.id))
    throw new ForbiddenError("You are reviewing this video blind: adjudicate it after you submit it.");
  const input = "fromSpanId" in parsed ? await acceptedInput(deps, video.id, parsed.fromSpanId, parsed.note) : parsed;
  const span = checkedSpan(input, await spanContextOf(deps, catalogue, video, input.task));
  return deps.prisma.$transaction((tx) =>
    createOneSpan(tx, video, span, { authorKind: "gold", authorId: GOLD_AUTHOR_ID, changedBy: actor.userId }),
  );
}
