/** The construction task's part of the testing-and-demo kit (testkit/task-kit.ts): its stub rules, demo part and crawl data. */
import type { TaskKit } from "../../../testkit/task-kit";
import { CONSTRUCTION_CRAWL_PAGES } from "./crawl-pages";
import { CONSTRUCTION_RULES } from "./stub-rules";

const kit: TaskKit = {
  id: "construction",
  stubRules: CONSTRUCTION_RULES,
  // Seed 004's blind prompts (Tables 24 and 31) are the QA baseline's too: the construction rules answer
  // only the construction runs' forms of them, and must be tried first.
  stubRulesBefore: ["qa"],
  demoSeed: async () => (await import("./demo-seed")).constructionDemo,
  crawlPages: CONSTRUCTION_CRAWL_PAGES,
  crawlSeed: async () => (await import("./crawl-seed")).constructionCrawlSeed,
};
export default kit;
