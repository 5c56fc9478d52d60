"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formValues, runAction, type ActionResult } from "@/app/_server/action-result";
import { projectAccess } from "@/lib/authz/permissions";
import { rederiveRunJudgeSpansAs } from "@/lib/spans/judge-spans-store";
import { requireRunVideosInView } from "@/lib/spans/span-visibility";
import { appDeps } from "@/lib/videos/app-deps";

const rederiveSchema = z.object({ projectId: z.string().min(1).max(200), runId: z.string().min(1).max(200) });

/** The run page's "Derive judge spans again": the run's judge spans from its stored answers, replacing its own. */
export async function rederiveJudgeSpansAction(
  _previous: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  return runAction(async (actor) => {
    const input = rederiveSchema.parse(formValues(formData));
    const { prisma } = appDeps();
    const access = await projectAccess(prisma, actor, input.projectId, "runs.manage");
    await requireRunVideosInView(prisma, actor.userId, input.runId, "Deriving this run's judge spans");
    const done = await rederiveRunJudgeSpansAs(appDeps(), access, input.runId);
    revalidatePath(`/projects/${input.projectId}/runs/${input.runId}`);
    const skipped = done.skipped.length > 0 ? `; ${done.skipped.length} video(s) without readable frames skipped` : "";
    return { ok: true, message: `${done.spans} judge span(s) from ${done.videos} video(s)${skipped}.` };
  });
}
