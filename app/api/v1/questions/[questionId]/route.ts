export { GET } from "@/lib/tasks/qa/routes/question";
