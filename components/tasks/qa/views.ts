import type { TaskViews } from "../task-views";

const views: TaskViews = { id: "qa" };
export default views;
