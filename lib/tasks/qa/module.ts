import type { TaskModule } from "../task-module";
import { qaPipeline } from "./qa-pipeline";
import { QA_RULES } from "./stub-rules";
import { withheldQuestionResult } from "./redact-results";

const task: TaskModule = { id: "qa", pipelines: [qaPipeline], stubRules: QA_RULES, redactResult: withheldQuestionResult, demoSeed: async () => (await import("./demo-seed")).qaDemo };
export default task;
