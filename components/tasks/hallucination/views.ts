import type { TaskViews } from "../task-views";
import { JudgeOutputs } from "./judge-outputs";
import { ScoreSettings } from "./score-settings";

const views: TaskViews = {
  id: "hallucination",
  outputs: { hallucination: JudgeOutputs },
  runSettings: { hallucination: ScoreSettings },
};
export default views;
