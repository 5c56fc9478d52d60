import type { TaskFolderDeclarations } from "../../task-modules/task-module";
import { QA_TASK } from "./qa-task";

const declarations: TaskFolderDeclarations = {
  id: "qa",
  tasks: [QA_TASK],
  runForm: {
    qa: {
      label: "video QA (seed 004, the endpoint answers)",
      endpointLabel: "Evaluated model (endpoint)",
      allVideosLabel: "every video with uniform frames",
      itemNoun: "question",
    },
  },
  navLinks: [{ id: "qa", label: "QA", path: "/qa", action: "project.view", after: "adjudication" }],
  itemNouns: [{ one: "question", many: "questions" }],
  runResultsLinks: { qa: { path: "/qa", label: "accuracy and answers", testId: "qa-results-link" } },
};
export default declarations;
