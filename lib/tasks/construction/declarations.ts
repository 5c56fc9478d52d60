import type { TaskDeclarations } from "../task-module";
import { CONSTRUCTION_CRAWL_PAGES } from "./crawl-pages";
import { QA_CONSTRUCT_TASK, QA_GENERATE_TASK } from "./construction-tasks";

const declarations: TaskDeclarations = { id: "construction", tasks: [QA_GENERATE_TASK, QA_CONSTRUCT_TASK], crawlPages: CONSTRUCTION_CRAWL_PAGES };
export default declarations;
