import type { TaskModule } from "../task-module";
import { stepAnnotationSetKind } from "./step-annotation-sets";
import { qaConstructPipeline } from "./qa-construct-pipeline";
import { qaGeneratePipeline } from "./qa-generate-pipeline";
import { CONSTRUCTION_RULES } from "./stub-rules";

const task: TaskModule = {
  id: "construction",
  pipelines: [qaGeneratePipeline, qaConstructPipeline],
  stubRules: CONSTRUCTION_RULES,
  // Seed 004's blind prompts (Tables 24 and 31) are the QA baseline's too: the construction rules answer
  // only the construction runs' forms of them, and must be tried first.
  stubRulesBefore: ["qa"],
  demoSeed: async () => (await import("./demo-seed")).constructionDemo,
  crawlSeed: async () => (await import("./crawl-seed")).constructionCrawlSeed,
  itemSetKinds: [stepAnnotationSetKind],
};
export default task;
