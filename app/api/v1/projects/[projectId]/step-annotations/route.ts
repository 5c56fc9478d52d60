export { GET, POST } from "@/lib/tasks/construction/routes/step-annotations";
