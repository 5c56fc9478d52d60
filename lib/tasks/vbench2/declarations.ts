import type { TaskFolderDeclarations } from "../../task-modules/task-module";
import { VBENCH2_TASK } from "./vbench2-task";

const declarations: TaskFolderDeclarations = {
  id: "vbench2",
  tasks: [VBENCH2_TASK],
  runForm: {
    vbench2: {
      label: "VBench-2.0 (the 12 VLM-judged dimensions)",
      endpointLabel: "VLM (VBench: LLaVA-Video-7B-Qwen2)",
      allVideosLabel: "every video with 64 uniform frames",
    },
  },
  navLinks: [{ id: "vbench2", label: "VBench-2.0", path: "/vbench2", action: "project.view", after: "adjudication" }],
  runResultsLinks: { vbench2: { path: "/vbench2", label: "VBench-2.0 results", testId: "vbench2-results-link" } },
};
export default declarations;
