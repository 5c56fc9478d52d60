import type { z } from "zod";
import type { PipelineDefinition } from "../engine/pipeline";
import { captionContentPipeline } from "../../tasks/captions/caption-content";
import { captionStylePipeline } from "../../tasks/captions/caption-style";
import { hallucinationPipeline } from "../../tasks/hallucination/pipeline";
import { qaConstructPipeline } from "../../tasks/construction/qa-construct-pipeline";
import { qaGeneratePipeline } from "../../tasks/construction/qa-generate-pipeline";
import { qaPipeline } from "../../tasks/qa/qa-pipeline";

export type RegisteredPipeline = PipelineDefinition & { settingsSchema?: z.ZodType };

/** Every pipeline the engine can run, by id. */
export const PIPELINES: Record<string, RegisteredPipeline> = {
  [hallucinationPipeline.id]: hallucinationPipeline,
  [captionStylePipeline.id]: captionStylePipeline,
  [captionContentPipeline.id]: captionContentPipeline,
  [qaPipeline.id]: qaPipeline,
  [qaGeneratePipeline.id]: qaGeneratePipeline,
  [qaConstructPipeline.id]: qaConstructPipeline,
};
