export { GET } from "@/lib/tasks/qa/routes/project-questions";
