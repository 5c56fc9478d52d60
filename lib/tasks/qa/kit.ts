/** The qa task's part of the testing-and-demo kit (testkit/task-kit.ts): its stub rules, demo part and crawl data. */
import type { TaskKit } from "../../../testkit/task-kit";
import { QA_CRAWL_PAGES } from "./crawl-pages";
import { QA_RULES } from "./stub-rules";

const kit: TaskKit = {
  id: "qa",
  stubRules: QA_RULES,
  demoSeed: async () => (await import("./demo-seed")).qaDemo,
  crawlPages: QA_CRAWL_PAGES,
  crawlSeed: async () => (await import("./crawl-seed")).qaCrawlSeed,
};
export default kit;
