import type { TaskModule } from "../task-module";
import { questionSetKind } from "./question-set-import";
import { qaPipeline } from "./qa-pipeline";

const task: TaskModule = {
  id: "qa",
  pipelines: [qaPipeline],
  itemSetKinds: [questionSetKind],
};
export default task;
