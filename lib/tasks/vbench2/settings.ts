import { z } from "zod";
import type { VideoContext } from "../../task-modules/pipeline-types";
import { JUDGED_DIMENSIONS } from "./vbench2-dimensions";

export const vbench2SettingsSchema = z.strictObject({
  /** The dimensions to judge; every judged dimension a video belongs to when absent. */
  dimensions: z
    .array(z.enum(JUDGED_DIMENSIONS, { error: `a dimension must be one of ${JUDGED_DIMENSIONS.join(", ")}` }))
    .min(1)
    .max(JUDGED_DIMENSIONS.length)
    .optional(),
  /** The text LLM of the four dimensions that compare descriptions (VBench: Qwen2.5-7B-Instruct); the run's endpoint when absent. */
  textEndpointId: z.string().min(1).max(64).optional(),
  /**
   * `faithful` (the default) sends what VBench-2.0's code sends, quirks included; `corrected` fixes the quirks that
   * are plainly bugs (Dynamic_Spatial_Relationship's first question says "1 frames" and cuts the timestamps string in
   * half by characters; Complex_Landscape compares plots 2 on with the previous judge's answer instead of the
   * summary): see docs/tasks/vbench2.md.
   */
  variant: z.enum(["faithful", "corrected"]).default("faithful"),
});
export type Vbench2Settings = z.output<typeof vbench2SettingsSchema>;

// Every step reads the run's settings several times: parsed once per settings object.
const parsedSettings = new WeakMap<object, Vbench2Settings>();

export function vbench2SettingsOf(context: Pick<VideoContext, "settings">): Vbench2Settings {
  const raw = context.settings;
  if (typeof raw !== "object" || raw === null) return vbench2SettingsSchema.parse(raw ?? {});
  let parsed = parsedSettings.get(raw);
  if (!parsed) parsedSettings.set(raw, (parsed = vbench2SettingsSchema.parse(raw)));
  return parsed;
}
