import type { TaskViews } from "../task-views";
import { JudgeOutputs } from "./judge-outputs";
import { HallucinationSettingsForm } from "./settings-form";

const views: TaskViews = {
  id: "hallucination",
  outputs: { hallucination: JudgeOutputs },
  defaultsForms: { hallucination: { title: "Hallucination scores", Form: HallucinationSettingsForm } },
};
export default views;
