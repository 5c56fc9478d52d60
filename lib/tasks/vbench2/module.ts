import type { TaskModule } from "../../task-modules/task-module";
import { vbench2Pipeline } from "./pipeline";
import { vbench2ScoreQuestions } from "./review-questions";

const task: TaskModule = {
  id: "vbench2",
  pipelines: [vbench2Pipeline],
  scoreQuestions: vbench2ScoreQuestions,
};
export default task;
