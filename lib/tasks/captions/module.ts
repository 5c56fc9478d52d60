import type { TaskModule } from "../../task-modules/task-module";
import { captionOutputsKind, captionReferenceSetKind } from "./caption-set-import";
import { captionContentPipeline } from "./caption-content";
import { captionStylePipeline } from "./caption-style";
import { withheldCaptionResult } from "./redact-results";
import { captionQueueType } from "./queue-type";

const task: TaskModule = {
  id: "captions",
  pipelines: [captionStylePipeline, captionContentPipeline],
  redactResult: withheldCaptionResult,
  queueTypes: [captionQueueType],
  itemSetKinds: [captionReferenceSetKind, captionOutputsKind],
  // Loaded when asked for: the item list reads the module registry, which this module is part of while it loads.
  videoItemList: async (prisma, access, videoId) =>
    (await import("./video-items")).videoCaptionList(prisma, access, videoId),
  // A caption's style score (after the length rules) and the judge's own, tuned through the style judge's prompt.
  alignableTargets: [
    { pipeline: "caption_style", targets: ["style"], valueStep: "length_rules", rewriteStep: "style_judge" },
    { pipeline: "caption_style", targets: ["style_raw"], valueStep: "style_judge", rewriteStep: "style_judge" },
  ],
};
export default task;
