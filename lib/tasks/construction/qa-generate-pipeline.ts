/**
 * Q&A generation (seed 004, InstructionBench's construction, Appendix C): per clip of a step annotation set,
 * the coarse-grained and the fine-grained template of the clip's dataset family (Tables 4–8 and 20–22; Table
 * 10's generalized templates for other data), filled with the clip's info as the seed formats it
 * (lib/tasks/construction/render-clip-info.ts). Text only: the model reads the annotations, no frame is sent; the
 * run still names a frame set per video (any mode) so curation can show frames at the referenced times.
 * The answers become candidates with lib/tasks/construction/candidates.ts.
 */
import { z } from "zod";
import { createCandidatesAfterRun } from "./candidates";
import { generatedPairsSchema, type GeneratedPair } from "./construction-outputs";
import { generationTemplateId, renderClipInfo, templateFamily, type Granularity } from "./render-clip-info";
import type { ClipPayload } from "./step-annotation-sets";
import type { StepDefinition, VideoContext } from "../../task-modules/pipeline-types";
import type { RegisteredPipeline } from "../../task-modules/pipeline-types";
import { QA_GENERATE_TASK } from "./construction-tasks";

/**
 * `perspective` picks the generalized template's system message (Table 10's Dataset Perspective): `auto` uses
 * the first-person one for a clip its annotation file marks `"perspective": "first-person"`, the
 * granularity's (third-person) one otherwise; the other two values choose for every generic clip. The
 * datasets with templates of their own (HiREST, YouCook2, Ego4D, Ego-Exo4D) keep theirs.
 */
export const GENERATION_PERSPECTIVES = ["auto", "first_person", "third_person"] as const;
export const qaGenerateSettingsSchema = z.strictObject({
  perspective: z.enum(GENERATION_PERSPECTIVES).default("auto"),
});
export type QaGenerateSettings = z.output<typeof qaGenerateSettingsSchema>;

/** The generation template of a clip: its family's, and for the generalized template the perspective's variant. */
export function generationTemplateOf(
  clip: Pick<ClipPayload, "dataset" | "perspective">,
  granularity: Granularity,
  perspective: QaGenerateSettings["perspective"],
): string {
  const family = templateFamily(clip.dataset);
  const firstPerson = perspective === "first_person" || (perspective === "auto" && clip.perspective === "first-person");
  return family === "generic" && firstPerson
    ? `${generationTemplateId(family, granularity)}-first-person`
    : generationTemplateId(family, granularity);
}

export const GENERATION_STEP_OF: Record<Granularity, string> = { coarse: "generate_coarse", fine: "generate_fine" };

const clipOf = (context: VideoContext, scopeIndex: number) => context.items[scopeIndex]!.payload as ClipPayload;

function generateStep(granularity: Granularity): StepDefinition<GeneratedPair[]> {
  return {
    id: GENERATION_STEP_OF[granularity],
    label: `Generate ${granularity}-grained Q&A`,
    scope: "item",
    templateId: generationTemplateId("generic", granularity),
    templateIdFor: (scopeIndex, context) =>
      generationTemplateOf(
        clipOf(context, scopeIndex),
        granularity,
        qaGenerateSettingsSchema.parse(context.settings ?? {}).perspective,
      ),
    schema: generatedPairsSchema,
    dependsOn: () => [],
    input: (scopeIndex, context) => {
      const clip = clipOf(context, scopeIndex);
      return { values: { video_info: renderClipInfo(templateFamily(clip.dataset), granularity, clip) }, frames: [] };
    },
  };
}

export interface QaGenerateItemSummary {
  itemId: string;
  coarse: number | null;
  fine: number | null;
}

export const qaGeneratePipeline: RegisteredPipeline = {
  id: "qa_generate",
  label: "Q&A generation from step annotations (seed 004)",
  task: QA_GENERATE_TASK,
  steps: [generateStep("coarse") as StepDefinition, generateStep("fine") as StepDefinition],
  settingsSchema: qaGenerateSettingsSchema,
  frames: () => ({ mode: "any" }),
  items: { kind: "clip", setNoun: "step annotation", setField: "clipSetId" },
  // The candidates are made as soon as the run is done (POST /api/v1/runs/:runId/candidates makes them too, idempotently).
  afterRun: async (prisma, runId) => void (await createCandidatesAfterRun(prisma, runId)),
  summarize: (_scores, context, _settings, outputs) => {
    const count = (stepId: string, i: number) => {
      const pairs = outputs.get(stepId, i);
      return Array.isArray(pairs) ? pairs.length : null;
    };
    const items: QaGenerateItemSummary[] = context.items.map((item, i) => ({
      itemId: item.id,
      coarse: count("generate_coarse", i),
      fine: count("generate_fine", i),
    }));
    return { items };
  },
  metricValues: () => ({}),
  itemMetrics: (summary) =>
    (summary as { items: QaGenerateItemSummary[] }).items.map((item) => ({
      itemId: item.itemId,
      values: { pairs: item.coarse === null && item.fine === null ? null : (item.coarse ?? 0) + (item.fine ?? 0) },
    })),
};
