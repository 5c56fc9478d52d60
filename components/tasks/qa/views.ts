import type { TaskViews } from "../task-views";
import { QaRunSettingsForm } from "./run-settings-form";
import { QUESTION_IMPORT_PANEL } from "./question-import";
import { AnswerSubjectView } from "./answer-under-review";

const views: TaskViews = { id: "qa", runSettingsForms: { qa: QaRunSettingsForm }, importPanels: [QUESTION_IMPORT_PANEL], subjectViews: { answer: AnswerSubjectView } };
export default views;
