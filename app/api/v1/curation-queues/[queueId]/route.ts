export { GET } from "@/lib/tasks/construction/routes/curation-queue";
