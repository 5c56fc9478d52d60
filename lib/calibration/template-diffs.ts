/**
 * What differs between the templates of compared judge setups: for each step whose template hashes differ, the
 * first setup's text and a line diff to each other setup's.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { createTemplateStore } from "../prompt-versions/prompt-templates";
import { lineDiff, type DiffLine } from "./line-diff";

export interface TemplateDiff {
  stepId: string;
  /** The first run's text and, for each other run whose hash differs, the diff from it. */
  base: { runId: string; hash: string | null; source: string };
  others: { runId: string; hash: string | null; source: string; diff: DiffLine[] }[];
}

/** What a setup's template diff reads: its id, its run and each step's template with the hashes its run used. */
export interface SetupTemplates {
  id: string;
  runId: string;
  templates: Record<string, { templateId: string; hashes: string[] }>;
}

/**
 * The texts behind differing template hashes: the shipped template when its hash is the run's, else the
 * prompt the run actually sent for that step (on the first compared video, where the runs' inputs are
 * the same, so what differs is the template).
 */
export async function templateDiffs(
  prisma: PrismaClient,
  setups: readonly SetupTemplates[],
  callRunIds: ReadonlyMap<string, string[]>,
  stepIds: readonly string[],
  videoId: string | null,
): Promise<TemplateDiff[]> {
  const store = createTemplateStore();
  const textOf = async (
    setup: SetupTemplates,
    stepId: string,
  ): Promise<{ hash: string | null; source: string; text: string }> => {
    const t = setup.templates[stepId];
    const hash = t?.hashes[0] ?? null;
    if (t && hash) {
      try {
        const shipped = store.get(t.templateId);
        if (shipped.hash === hash) return { hash, source: `prompts/${t.templateId}.md (shipped)`, text: shipped.raw };
      } catch {
        // Not a shipped template (or no longer on disk): fall back to the prompt the run sent.
      }
    }
    const call = await prisma.llmCall.findFirst({
      // An ensemble's prompt is the one its members sent (their earliest call).
      where: {
        runId: { in: callRunIds.get(setup.id) ?? [setup.runId] },
        isRepair: false,
        stepResult: { stepId, ...(videoId ? { videoId } : {}) },
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { request: true, videoId: true },
    });
    const text = (call?.request as { text?: unknown } | null)?.text;
    if (typeof text === "string") return { hash, source: `the prompt sent for video ${call!.videoId}`, text };
    return { hash, source: "no text stored", text: "" };
  };
  const diffs: TemplateDiff[] = [];
  for (const stepId of stepIds) {
    const [first, ...rest] = setups;
    const base = await textOf(first!, stepId);
    const others = [];
    for (const setup of rest) {
      if (
        JSON.stringify(setup.templates[stepId]?.hashes ?? []) === JSON.stringify(first!.templates[stepId]?.hashes ?? [])
      )
        continue;
      const other = await textOf(setup, stepId);
      others.push({ runId: setup.id, hash: other.hash, source: other.source, diff: lineDiff(base.text, other.text) });
    }
    diffs.push({ stepId, base: { runId: first!.id, hash: base.hash, source: base.source }, others });
  }
  return diffs;
}
