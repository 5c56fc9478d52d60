import type { TaskModule } from "../task-module";
import { qaConstructPipeline } from "./qa-construct-pipeline";
import { qaGeneratePipeline } from "./qa-generate-pipeline";

const task: TaskModule = { id: "construction", pipelines: [qaGeneratePipeline, qaConstructPipeline] };
export default task;
