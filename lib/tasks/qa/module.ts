import type { TaskModule } from "../task-module";
import { qaApiRoutes } from "./api-routes";
import { questionSetKind } from "./question-set-import";
import { qaPipeline } from "./qa-pipeline";
import { withheldQuestionResult } from "./redact-results";
import { QA_RULES } from "./stub-rules";
import { answerQueueScope } from "./queue-scope";

const task: TaskModule = {
  id: "qa",
  pipelines: [qaPipeline],
  apiRoutes: qaApiRoutes,
  stubRules: QA_RULES,
  redactResult: withheldQuestionResult,
  demoSeed: async () => (await import("./demo-seed")).qaDemo,
  crawlSeed: async () => (await import("./crawl-seed")).qaCrawlSeed,
  queueScopes: [answerQueueScope],
  itemSetKinds: [questionSetKind],
};
export default task;
