import type { TaskViews } from "../task-views";
import { CaptionRunSettingsForm } from "./run-settings-form";
import { CAPTION_IMPORT_PANEL } from "./caption-import";
import { CaptionSubjectView } from "./caption-under-review";
import { CaptionQueueOptions } from "./caption-queue-options";

const views: TaskViews = {
  id: "captions",
  runSettingsForms: { caption_style: CaptionRunSettingsForm, caption_content: CaptionRunSettingsForm },
  importPanels: [CAPTION_IMPORT_PANEL],
  subjectViews: { caption: CaptionSubjectView },
  queueOptionsForms: { captions: CaptionQueueOptions },
};
export default views;
