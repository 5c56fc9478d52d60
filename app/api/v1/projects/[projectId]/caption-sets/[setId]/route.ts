export { DELETE } from "@/lib/tasks/captions/routes/caption-set";
