import type { TaskDeclarations } from "../task-module";
import { QA_TASK } from "./qa-task";

const declarations: TaskDeclarations = { id: "qa", tasks: [QA_TASK] };
export default declarations;
