import type { TaskFolderDeclarations } from "../../task-modules/task-module";
import { CAPTION_CONTENT_TASK, CAPTION_STYLE_TASK } from "./caption-tasks";

const declarations: TaskFolderDeclarations = {
  id: "captions",
  tasks: [CAPTION_STYLE_TASK, CAPTION_CONTENT_TASK],
  runForm: {
    caption_style: {
      label: "caption style (seed 003 rubric)",
      allVideosLabel: "every video with uniform frames",
      itemNoun: "caption",
    },
    caption_content: {
      label: "caption content (AnyCapEval key points)",
      allVideosLabel: "every video with uniform frames",
      itemNoun: "caption",
    },
  },
  navLinks: [{ id: "captions", label: "Captions", path: "/captions", action: "project.view", after: "adjudication" }],
  itemNouns: [{ one: "caption", many: "captions" }],
};
export default declarations;
