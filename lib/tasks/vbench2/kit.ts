/** The vbench2 task's part of the testing-and-demo kit (testkit/task-kit.ts): its stub rules, demo part and crawl data. */
import type { TaskKit } from "../../../testkit/task-kit";
import { VBENCH2_CRAWL_PAGES } from "./crawl-pages";
import { VBENCH2_RULES } from "./stub-rules";

const kit: TaskKit = {
  id: "vbench2",
  stubRules: VBENCH2_RULES,
  demoSeed: async () => (await import("./demo-seed")).vbench2Demo,
  crawlPages: VBENCH2_CRAWL_PAGES,
  crawlSeed: async () => (await import("./crawl-seed")).vbench2CrawlSeed,
};
export default kit;
