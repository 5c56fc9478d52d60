export { default } from "@/components/tasks/construction/pages/curation-queue-page";
