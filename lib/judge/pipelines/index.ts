import type { z } from "zod";
import type { PipelineDefinition } from "../engine/pipeline";
import { captionContentPipeline } from "./captions/caption-content";
import { captionStylePipeline } from "./captions/caption-style";
import { hallucinationPipeline } from "./hallucination";

export type RegisteredPipeline = PipelineDefinition & { settingsSchema?: z.ZodType };

/** Every pipeline the engine can run, by id. The video-QA judge joins here. */
export const PIPELINES: Record<string, RegisteredPipeline> = {
  [hallucinationPipeline.id]: hallucinationPipeline,
  [captionStylePipeline.id]: captionStylePipeline,
  [captionContentPipeline.id]: captionContentPipeline,
};
