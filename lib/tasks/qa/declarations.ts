import type { TaskDeclarations } from "../task-module";
import { QA_CRAWL_PAGES } from "./crawl-pages";
import { QA_TASK } from "./qa-task";

const declarations: TaskDeclarations = { id: "qa", tasks: [QA_TASK], crawlPages: QA_CRAWL_PAGES };
export default declarations;
