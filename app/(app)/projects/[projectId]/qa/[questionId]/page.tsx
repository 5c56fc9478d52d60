export { default } from "@/components/tasks/qa/pages/question-page";
