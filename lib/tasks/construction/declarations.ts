import type { TaskFolderDeclarations } from "../../task-modules/task-module";
import { QA_CONSTRUCT_TASK, QA_GENERATE_TASK } from "./construction-tasks";

// Its runs start on the construction page, so the Judge page's run form does not offer its pipelines.
const declarations: TaskFolderDeclarations = {
  id: "construction",
  tasks: [QA_GENERATE_TASK, QA_CONSTRUCT_TASK],
  navLinks: [
    { id: "construction", label: "Construction", path: "/construction", action: "project.view", after: "calibration" },
  ],
};
export default declarations;
