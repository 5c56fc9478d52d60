import type { TaskModule } from "../../task-modules/task-module";
import { stepAnnotationSetKind } from "./step-annotation-sets";
import { qaConstructPipeline } from "./qa-construct-pipeline";
import { qaGeneratePipeline } from "./qa-generate-pipeline";

const task: TaskModule = {
  id: "construction",
  pipelines: [qaGeneratePipeline, qaConstructPipeline],
  itemSetKinds: [stepAnnotationSetKind],
};
export default task;
