import { z } from "zod";
import { spanLookup, wholeSpanLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { appDeps } from "@/lib/videos/app-deps";
import { spanHistory, spanRecord, updateSpan, withdrawSpan } from "@/lib/spans/span-store";
import { visibleSpansFor } from "@/lib/spans/span-visibility";
import { NotFoundError } from "@/lib/errors";
import { spanRecordSchema, spanUpdateSchema, spanWithHistoryAnswerSchema } from "@/lib/spans/span-validation";

/** Changes the caller's own span at the version it names: a stale version is a 409 with the current span. */
export const PATCH = withProjectOf(
  spanLookup,
  "scores.review",
  {
    summary: "Change the caller's own span",
    description: "`{expectedVersion, label?, startFrame?, endFrame?, boxes?, note?}`; a span changed since → 409.",
    body: { kind: "json", schema: spanUpdateSchema },
    responses: [ok("The span.", spanRecordSchema)],
    errors: [409],
  },
  async ({ access, record, body, catalogue }) =>
    Response.json(await updateSpan(appDeps(), access, record.id, body, catalogue.declarations())),
);

/** Withdraws the caller's own span: kept in history, it counts nowhere. */
export const DELETE = withProjectOf(
  spanLookup,
  "scores.review",
  {
    summary: "Withdraw the caller's own span",
    body: { kind: "json", schema: z.object({ expectedVersion: z.number().int().min(1) }).strict() },
    responses: [ok("The withdrawn span.", spanRecordSchema)],
    errors: [409],
  },
  async ({ access, record, body }) =>
    Response.json(await withdrawSpan(appDeps(), access, record.id, body.expectedVersion)),
);

/** The span's history, oldest first (members of its project). */
export const GET = withProjectOf(
  wholeSpanLookup,
  "project.view",
  { summary: "A span with its history", responses: [ok("`{span, history}`.", spanWithHistoryAnswerSchema)] },
  async ({ prisma, actor, role, record: span }) => {
    const { spans } = await visibleSpansFor(prisma, { userId: actor.userId, role }, span.videoId, [spanRecord(span)]);
    if (spans.length === 0) throw new NotFoundError("No such span of yours.");
    return Response.json({ span: spans[0], history: await spanHistory(prisma, span.id) });
  },
);
