import { z } from "zod";
import { aspectIdSchema } from "../aspects";
import { PAIR_ORDERS } from "./reconcile";
import { pairsEnsembleSchema } from "../../judge/runs/ensemble-settings";

/** A pairwise run's settings (JudgeRun.settings): the aspects it asks, always both orders, and frames per video. */
export const pairwiseSettingsSchema = z.object({
  aspects: z.array(aspectIdSchema).min(1).max(20),
  orders: z.tuple([z.literal(PAIR_ORDERS[0]), z.literal(PAIR_ORDERS[1])]),
  framesPerVideo: z.number().int().min(1).max(64),
});
export type PairwiseSettings = z.infer<typeof pairwiseSettingsSchema>;

/** Frames of each video a question shows when the run names no number: enough to see motion, two videos in one request. */
export const DEFAULT_FRAMES_PER_VIDEO = 8;

/** The step of one question: one aspect in one order (StepResult.stepId of a pairwise run; its videoId is the pair's id). */
export const questionStepId = (aspect: string, order: string) => `${aspect}:${order}`;

/**
 * What a pairwise parent run combines (JudgeRun.ensemble, marked PAIRS_ENSEMBLE): its members are self-consistency
 * samples or a panel's judges; null for a run that asks the questions itself.
 */
export function pairwiseEnsembleKind(stored: unknown): "samples" | "panel" | null {
  const parsed = pairsEnsembleSchema.extend({ kind: z.enum(["samples", "panel"]) }).safeParse(stored);
  return parsed.success ? parsed.data.kind : null;
}
