export { POST } from "@/lib/tasks/captions/routes/caption-set-outputs";
