import type { TaskDeclarations } from "../task-module";
import { HALLUCINATION_TASK } from "./task";

const declarations: TaskDeclarations = {
  id: "hallucination",
  tasks: [HALLUCINATION_TASK],
  runForm: { hallucination: { label: "hallucination (Sora Detector)" } },
};
export default declarations;
