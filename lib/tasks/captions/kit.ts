/** The captions task's part of the testing-and-demo kit (testkit/task-kit.ts): its stub rules, demo part and crawl data. */
import type { TaskKit } from "../../../testkit/task-kit";
import { CAPTIONS_CRAWL_PAGES } from "./crawl-pages";
import { CAPTION_RULES } from "./stub-rules";

const kit: TaskKit = {
  id: "captions",
  stubRules: CAPTION_RULES,
  demoSeed: async () => (await import("./demo-seed")).captionsDemo,
  crawlPages: CAPTIONS_CRAWL_PAGES,
  crawlSeed: async () => (await import("./crawl-seed")).captionsCrawlSeed,
};
export default kit;
