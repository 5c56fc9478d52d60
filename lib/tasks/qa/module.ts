import type { TaskModule } from "../../task-modules/task-module";
import { questionSetKind } from "./question-set-import";
import { qaPipeline } from "./qa-pipeline";
import { withheldQuestionResult } from "./redact-results";
import { answerQueueType } from "./queue-type";

const task: TaskModule = {
  id: "qa",
  pipelines: [qaPipeline],
  redactResult: withheldQuestionResult,
  queueTypes: [answerQueueType],
  itemSetKinds: [questionSetKind],
  // An answer's correctness as the judge decides it; the rewrite is of the open questions' judge (multiple-choice
  // answers with one letter are decided without a call).
  alignableTargets: [
    {
      pipeline: "qa",
      targets: ["correctness"],
      valueStep: "decide",
      rewriteStep: "decide",
      rewriteTemplateId: "qa/judge-open",
    },
  ],
};
export default task;
