import type { TaskViews } from "../task-views";
import { QaRunSettingsForm } from "./run-settings-form";

const views: TaskViews = { id: "qa", runSettingsForms: { qa: QaRunSettingsForm } };
export default views;
