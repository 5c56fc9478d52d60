import type { TaskViews } from "../task-views";
import { AnswerSubjectView } from "./answer-under-review";

const views: TaskViews = { id: "qa", subjectViews: { answer: AnswerSubjectView } };
export default views;
