export { GET } from "@/lib/tasks/captions/routes/project-captions";
