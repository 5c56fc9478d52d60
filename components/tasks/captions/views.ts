import type { TaskViews } from "../task-views";
import { CAPTION_IMPORT_PANEL } from "./caption-import";

const views: TaskViews = { id: "captions", importPanels: [CAPTION_IMPORT_PANEL] };
export default views;
