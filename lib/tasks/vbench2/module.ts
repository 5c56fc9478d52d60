import type { TaskModule } from "../task-module";
import { vbench2Pipeline } from "./pipeline";
import { vbench2ScoreQuestions } from "./review-questions";
import { VBENCH2_RULES } from "./stub-rules";

const task: TaskModule = {
  id: "vbench2",
  pipelines: [vbench2Pipeline],
  stubRules: VBENCH2_RULES,
  scoreQuestions: vbench2ScoreQuestions,
  demoSeed: async () => (await import("./demo-seed")).vbench2Demo,
  crawlSeed: async () => (await import("./crawl-seed")).vbench2CrawlSeed,
};
export default task;
