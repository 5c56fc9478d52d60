import type { TaskModule } from "../task-module";
import { captionContentPipeline } from "./caption-content";
import { captionStylePipeline } from "./caption-style";
import { CAPTION_RULES } from "./stub-rules";

const task: TaskModule = { id: "captions", pipelines: [captionStylePipeline, captionContentPipeline], stubRules: CAPTION_RULES };
export default task;
