export { GET } from "@/lib/tasks/qa/routes/run-qa";
