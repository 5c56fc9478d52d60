import type { TaskViews } from "../task-views";
import { CaptionRunSettingsForm } from "./run-settings-form";
import { CAPTION_IMPORT_PANEL } from "./caption-import";

const views: TaskViews = { id: "captions", runSettingsForms: { caption_style: CaptionRunSettingsForm, caption_content: CaptionRunSettingsForm }, importPanels: [CAPTION_IMPORT_PANEL] };
export default views;
