import type { TaskModule } from "../task-module";
import { qaPipeline } from "./qa-pipeline";

const task: TaskModule = { id: "qa", pipelines: [qaPipeline] };
export default task;
