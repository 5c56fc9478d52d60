import type { TaskModule } from "../task-module";
import { hallucinationPipeline } from "./pipeline";
import { HALLUCINATION_RULES } from "./stub-rules";

const task: TaskModule = {
  id: "hallucination",
  pipelines: [hallucinationPipeline],
  stubRules: HALLUCINATION_RULES,
  demoSeed: async () => (await import("./demo-seed")).hallucinationDemo,
};
export default task;
