import type { TaskViews } from "../task-views";
import { JudgeOutputs } from "./judge-outputs";

const views: TaskViews = { id: "hallucination", outputs: { hallucination: JudgeOutputs } };
export default views;
