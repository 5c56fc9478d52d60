/**
 * What a task folder gives the testing-and-demo kit (testkit/), beside what it gives the product (its module and
 * declarations, lib/task-modules/task-module.ts): how the stub LLM answers its prompts, its part of `npm run demo`, and its
 * pages and data for the every-page crawl. `lib/tasks/<id>/kit.ts` default-exports one; scripts/generate-task-registry.mjs
 * lists them in testkit/generated/task-kits.ts, which only the kit, the tests, e2e/ and the scripts import: nothing of
 * it reaches the app's bundles.
 */
import type { CrawlPage, CrawlSeedPart } from "./crawl/task-crawl";
import type { DemoSeedPart } from "./demo/demo-part";
import type { StubRule } from "./llm-stub/stub-rule";

export interface TaskKit {
  /** The folder's id (an entry of TASK_FOLDER_IDS). */
  id: string;
  /** How the stub LLM (testkit/llm-stub) answers the task's prompts, tried in order (lib/tasks/<id>/stub-rules.ts). */
  stubRules?: readonly StubRule[];
  /** Task ids whose stub rules this task's are tried before: its prompts are narrower forms of theirs. */
  stubRulesBefore?: readonly string[];
  /**
   * The task's part of `npm run demo` (lib/tasks/<id>/demo-seed.ts; testkit/demo runs the parts in TASK_FOLDER_IDS order),
   * loaded when the demo seeds.
   */
  demoSeed?: () => Promise<DemoSeedPart>;
  /** The task's pages for the every-page crawl (e2e/pages.ts lists them after the core's; lib/tasks/<id>/crawl-pages.ts). */
  crawlPages?: readonly CrawlPage[];
  /** The task's data for the every-page crawl (e2e/crawl-seed.ts runs them in TASK_FOLDER_IDS order), loaded when the crawl seeds. */
  crawlSeed?: () => Promise<CrawlSeedPart>;
}
