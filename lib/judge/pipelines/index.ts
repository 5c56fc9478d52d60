import type { z } from "zod";
import type { PipelineDefinition } from "../engine/pipeline";
import { hallucinationPipeline } from "./hallucination";

export type RegisteredPipeline = PipelineDefinition & { settingsSchema?: z.ZodType };

/** Every pipeline the engine can run, by id. The caption rubric and video-QA judges join here. */
export const PIPELINES: Record<string, RegisteredPipeline> = {
  [hallucinationPipeline.id]: hallucinationPipeline,
};
