import type { TaskViews } from "../task-views";
import { CaptionRunSettingsForm } from "./run-settings-form";

const views: TaskViews = { id: "captions", runSettingsForms: { caption_style: CaptionRunSettingsForm, caption_content: CaptionRunSettingsForm } };
export default views;
