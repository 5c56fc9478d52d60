import type { TaskViews } from "../task-views";

const views: TaskViews = {
  id: "vbench2",
};
export default views;
