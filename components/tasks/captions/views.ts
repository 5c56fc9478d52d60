import type { TaskViews } from "../task-views";

const views: TaskViews = { id: "captions" };
export default views;
