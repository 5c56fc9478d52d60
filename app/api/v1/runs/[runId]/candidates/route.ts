export { POST } from "@/lib/tasks/construction/routes/run-candidates";
