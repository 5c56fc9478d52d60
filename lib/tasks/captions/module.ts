import type { TaskModule } from "../task-module";
import { captionApiRoutes } from "./api-routes";
import { captionOutputsKind, captionReferenceSetKind } from "./caption-set-import";
import { captionContentPipeline } from "./caption-content";
import { captionStylePipeline } from "./caption-style";
import { withheldCaptionResult } from "./redact-results";
import { CAPTION_RULES } from "./stub-rules";
import { captionQueueScope } from "./queue-scope";
import { videoCaptionList } from "./video-items";

const task: TaskModule = {
  id: "captions",
  pipelines: [captionStylePipeline, captionContentPipeline],
  apiRoutes: captionApiRoutes,
  stubRules: CAPTION_RULES,
  redactResult: withheldCaptionResult,
  demoSeed: async () => (await import("./demo-seed")).captionsDemo,
  crawlSeed: async () => (await import("./crawl-seed")).captionsCrawlSeed,
  queueScopes: [captionQueueScope],
  itemSetKinds: [captionReferenceSetKind, captionOutputsKind],
  videoItemList: videoCaptionList,
};
export default task;
