import type { TaskModule } from "../task-module";
import { captionContentPipeline } from "./caption-content";
import { captionStylePipeline } from "./caption-style";
import { captionQueueScope } from "./queue-scope";

const task: TaskModule = { id: "captions", pipelines: [captionStylePipeline, captionContentPipeline], queueScopes: [captionQueueScope] };
export default task;
