export { GET } from "@/lib/tasks/captions/routes/run-captions";
