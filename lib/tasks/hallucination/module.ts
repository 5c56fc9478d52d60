import type { TaskModule } from "../task-module";
import { hallucinationPipeline } from "./pipeline";

const task: TaskModule = { id: "hallucination", pipelines: [hallucinationPipeline] };
export default task;
