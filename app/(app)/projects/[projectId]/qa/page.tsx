export { default } from "@/components/tasks/qa/pages/qa-page";
