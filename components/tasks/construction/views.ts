import type { TaskViews } from "../task-views";

const views: TaskViews = { id: "construction" };
export default views;
