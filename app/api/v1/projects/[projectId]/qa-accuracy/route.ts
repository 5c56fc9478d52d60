export { GET } from "@/lib/tasks/qa/routes/qa-accuracy";
