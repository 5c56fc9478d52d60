import type { TaskDeclarations } from "../task-module";
import { QA_CONSTRUCT_TASK, QA_GENERATE_TASK } from "./construction-tasks";

const declarations: TaskDeclarations = { id: "construction", tasks: [QA_GENERATE_TASK, QA_CONSTRUCT_TASK] };
export default declarations;
