import type { TaskViews } from "../task-views";
import { Vbench2RunSettingsForm } from "./run-settings-form";

const views: TaskViews = {
  id: "vbench2",
  runSettingsForms: { vbench2: Vbench2RunSettingsForm },
};
export default views;
