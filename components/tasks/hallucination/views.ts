import type { TaskViews } from "../task-views";
import { JudgeOutputs } from "./judge-outputs";
import { ScoreSettings } from "./score-settings";
import { HallucinationSettingsForm } from "./settings-form";

const views: TaskViews = {
  id: "hallucination",
  outputs: { hallucination: JudgeOutputs },
  runSettings: { hallucination: ScoreSettings },
  defaultsForms: { hallucination: { title: "Hallucination scores", Form: HallucinationSettingsForm } },
};
export default views;
