import type { TaskModule } from "../task-module";
import { qaApiRoutes } from "./api-routes";
import { qaPipeline } from "./qa-pipeline";

const task: TaskModule = {
  id: "qa",
  pipelines: [qaPipeline],
  apiRoutes: qaApiRoutes,
};
export default task;
