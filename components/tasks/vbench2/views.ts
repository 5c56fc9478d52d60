import type { TaskViews } from "../task-views";
import { Vbench2Answers, Vbench2Settings } from "./answers-view";
import { Vbench2RunSettingsForm } from "./run-settings-form";

const views: TaskViews = {
  id: "vbench2",
  outputs: { vbench2: Vbench2Answers },
  runSettings: { vbench2: Vbench2Settings },
  runSettingsForms: { vbench2: Vbench2RunSettingsForm },
};
export default views;
