import type { TaskModule } from "../task-module";
import { captionContentPipeline } from "./caption-content";
import { captionStylePipeline } from "./caption-style";

const task: TaskModule = { id: "captions", pipelines: [captionStylePipeline, captionContentPipeline] };
export default task;
