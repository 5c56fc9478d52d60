export { POST } from "@/lib/tasks/qa/routes/harness-runs";
