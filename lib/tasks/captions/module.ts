import type { TaskModule } from "../task-module";
import { captionContentPipeline } from "./caption-content";
import { captionStylePipeline } from "./caption-style";
import { CAPTION_RULES } from "./stub-rules";
import { withheldCaptionResult } from "./redact-results";

const task: TaskModule = { id: "captions", pipelines: [captionStylePipeline, captionContentPipeline], stubRules: CAPTION_RULES, redactResult: withheldCaptionResult, demoSeed: async () => (await import("./demo-seed")).captionsDemo };
export default task;
