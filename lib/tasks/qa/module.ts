import type { TaskModule } from "../task-module";
import { qaPipeline } from "./qa-pipeline";
import { answerQueueScope } from "./queue-scope";

const task: TaskModule = { id: "qa", pipelines: [qaPipeline], queueScopes: [answerQueueScope] };
export default task;
