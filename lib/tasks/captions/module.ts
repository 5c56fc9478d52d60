import type { TaskModule } from "../task-module";
import { captionApiRoutes } from "./api-routes";
import { captionContentPipeline } from "./caption-content";
import { captionStylePipeline } from "./caption-style";

const task: TaskModule = {
  id: "captions",
  pipelines: [captionStylePipeline, captionContentPipeline],
  apiRoutes: captionApiRoutes,
};
export default task;
