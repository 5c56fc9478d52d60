import type { TaskFolderDeclarations } from "../../task-modules/task-module";
import { HALLUCINATION_TASK } from "./task";

const declarations: TaskFolderDeclarations = {
  id: "hallucination",
  tasks: [HALLUCINATION_TASK],
  runForm: { hallucination: { label: "hallucination (Sora Detector)" } },
  labelSetFormats: [
    {
      id: "t2vhalubench",
      label: "T2VHaluBench sheet (.xlsx)",
      description: "T2VHaluBench's label sheet (.xlsx)",
      fileLabel: "Label sheet",
      accept: ".xlsx",
      defaultName: "T2VHaluBench",
      matchVideos: { fileNameColumn: "Example" },
      isDefault: true,
    },
  ],
};
export default declarations;
