/**
 * What a task folder gives the core, in two parts: its declarations (plain data, safe in the browser)
 * and its module (server code: pipelines and what the stub, the demo and the queues need of it). The
 * core reads them through the registry (lib/tasks/registry.ts, lib/tasks/modules.ts), never by name.
 */
import type { DemoSeedPart } from "../demo/demo-part";
import type { RegisteredPipeline } from "../judge/engine/pipeline";
import type { StubRule } from "../llm-stub/stub-rule";
import type { CrawlPage, CrawlSeedPart } from "./task-crawl";
import type { TaskDeclaration } from "./task-declaration";

/** `lib/tasks/<id>/declarations.ts`'s default export. */
export interface TaskDeclarations {
  /** The folder's id (an entry of TASK_IDS). */
  id: string;
  /** What each of the folder's pipelines scores, one declaration per pipeline id. */
  tasks: readonly TaskDeclaration[];
  /** TEST TOOL: the task's pages for the every-page crawl (e2e/pages.ts lists them with the core's; lib/tasks/<id>/crawl-pages.ts). */
  crawlPages?: readonly CrawlPage[];
}

/** `lib/tasks/<id>/module.ts`'s default export. */
export interface TaskModule {
  /** The folder's id (an entry of TASK_IDS). */
  id: string;
  /** The pipelines the engine can run for the task; each carries its declaration as `task`. */
  pipelines: readonly RegisteredPipeline[];
  /** TEST TOOL: how the stub LLM (lib/llm-stub) answers the task's prompts, tried in order (lib/tasks/<id>/stub-rules.ts). */
  stubRules?: readonly StubRule[];
  /** Task ids whose stub rules this task's are tried before: its prompts are narrower forms of theirs. */
  stubRulesBefore?: readonly string[];
  /**
   * One of the task's run results as a blind reviewer may see it: every judge value withheld, what was
   * imported kept (lib/visibility's withheldResult and redactResultsFor apply it; a task without one
   * cannot show its results to a blind reviewer). Given results of the shape the task's own reads return.
   */
  redactResult?(result: unknown): unknown;
  /**
   * The task's part of `npm run demo` (lib/tasks/<id>/demo-seed.ts; lib/demo runs the registered parts in
   * registry order), loaded when the demo seeds: demo code stays out of the app's module graph.
   */
  demoSeed?: () => Promise<DemoSeedPart>;
  /** TEST TOOL: the task's data for the every-page crawl (e2e/crawl-seed.ts runs them in registry order), loaded when the crawl seeds. */
  crawlSeed?: () => Promise<CrawlSeedPart>;
}
