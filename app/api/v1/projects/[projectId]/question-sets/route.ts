export { GET, POST } from "@/lib/tasks/qa/routes/question-sets";
