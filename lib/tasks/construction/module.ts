import type { TaskModule } from "../task-module";
import { constructionApiRoutes } from "./api-routes";
import { qaConstructPipeline } from "./qa-construct-pipeline";
import { qaGeneratePipeline } from "./qa-generate-pipeline";

const task: TaskModule = {
  id: "construction",
  pipelines: [qaGeneratePipeline, qaConstructPipeline],
  apiRoutes: constructionApiRoutes,
};
export default task;
