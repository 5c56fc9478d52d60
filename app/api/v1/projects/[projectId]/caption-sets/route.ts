export { GET, POST } from "@/lib/tasks/captions/routes/caption-sets";
