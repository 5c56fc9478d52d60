"use client";

import { ActionForm } from "@/components/action-form";
import type { ActionResult } from "@/lib/api/action-result";

/**
 * The run page's owner action: the run's judge spans derived again from its stored answers (a run that finished
 * before its task said where, or whose videos' frames could not be read then). No call is made.
 */
export function RederiveJudgeSpans({
  projectId,
  runId,
  action,
}: {
  projectId: string;
  runId: string;
  action: (previous: ActionResult | null, formData: FormData) => Promise<ActionResult>;
}) {
  return (
    <section className="flex flex-col gap-1 text-sm" data-testid="rederive-judge-spans">
      <h2 className="font-medium text-slate-700">Judge spans</h2>
      <p className="text-slate-600">
        Where the judge&apos;s findings lie, kept with the run as each video ends. Derive them again from the stored
        answers (no call is made): the run&apos;s judge spans are replaced.
      </p>
      <ActionForm action={action} submitLabel="Derive judge spans again" variant="secondary">
        <input type="hidden" name="projectId" value={projectId} />
        <input type="hidden" name="runId" value={runId} />
      </ActionForm>
    </section>
  );
}
