import type { TaskModule } from "../task-module";
import { qaPipeline } from "./qa-pipeline";
import { QA_RULES } from "./stub-rules";

const task: TaskModule = { id: "qa", pipelines: [qaPipeline], stubRules: QA_RULES };
export default task;
