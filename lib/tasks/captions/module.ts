import type { TaskModule } from "../task-module";
import { captionOutputsKind, captionReferenceSetKind } from "./caption-set-import";
import { captionContentPipeline } from "./caption-content";
import { captionStylePipeline } from "./caption-style";

const task: TaskModule = {
  id: "captions",
  pipelines: [captionStylePipeline, captionContentPipeline],
  itemSetKinds: [captionReferenceSetKind, captionOutputsKind],
};
export default task;
