import { z } from "zod";
import { inputModeSchema } from "../input-modes/index";

/** The frame counts a sweep may ask for. */
export const SWEEP_MAX_FRAMES = 256;

const distinct = <T>(values: readonly T[]) => new Set(values).size === values.length;

/** `sweep`: `{inputModes: [...]}` or `{frameCounts: [...]}`, two or more distinct values. */
export const runSweepSchema = z.union([
  z.strictObject({
    inputModes: z
      .array(inputModeSchema)
      .min(2, "sweep.inputModes: at least two modes.")
      .refine(distinct, "sweep.inputModes: each mode once."),
  }),
  z.strictObject({
    frameCounts: z
      .array(z.int().min(1).max(SWEEP_MAX_FRAMES))
      .min(2, "sweep.frameCounts: at least two frame counts.")
      .max(8, "sweep.frameCounts: at most eight frame counts.")
      .refine(distinct, "sweep.frameCounts: each count once."),
  }),
]);
export type RunSweep = z.output<typeof runSweepSchema>;
