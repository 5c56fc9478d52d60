import type { TaskDeclarations } from "../task-module";
import { CAPTIONS_CRAWL_PAGES } from "./crawl-pages";
import { CAPTION_CONTENT_TASK, CAPTION_STYLE_TASK } from "./caption-tasks";

const declarations: TaskDeclarations = { id: "captions", tasks: [CAPTION_STYLE_TASK, CAPTION_CONTENT_TASK], crawlPages: CAPTIONS_CRAWL_PAGES };
export default declarations;
