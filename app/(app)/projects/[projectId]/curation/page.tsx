export { default } from "@/components/tasks/construction/pages/curation-page";
