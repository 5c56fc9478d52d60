import type { TaskViews } from "../task-views";
import { CaptionSubjectView } from "./caption-under-review";

const views: TaskViews = { id: "captions", subjectViews: { caption: CaptionSubjectView } };
export default views;
