import type { TaskViews } from "../task-views";
import { QaRunSettingsForm } from "./run-settings-form";
import { QUESTION_IMPORT_PANEL } from "./question-import";
import { AnswerSubjectView } from "./answer-under-review";
import { AnswerQueueOptions } from "./answer-queue-options";

const views: TaskViews = {
  id: "qa",
  runSettingsForms: { qa: QaRunSettingsForm },
  importPanels: [QUESTION_IMPORT_PANEL],
  subjectViews: { answer: AnswerSubjectView },
  queueOptionsForms: { answers: AnswerQueueOptions },
  // c / w mark the answer under review correct or wrong.
  subjectValueKeys: {
    answer: {
      one: "c",
      zero: "w",
      category: "correctness",
      help: ["c / w", "QA answer: correct / wrong (also 1 / 0)"],
    },
  },
};
export default views;
