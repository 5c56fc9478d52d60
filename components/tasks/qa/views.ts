import type { TaskViews } from "../task-views";
import { QUESTION_IMPORT_PANEL } from "./question-import";

const views: TaskViews = { id: "qa", importPanels: [QUESTION_IMPORT_PANEL] };
export default views;
