export { DELETE } from "@/lib/tasks/qa/routes/question-set";
