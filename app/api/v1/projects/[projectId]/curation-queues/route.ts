export { GET, POST } from "@/lib/tasks/construction/routes/curation-queues";
