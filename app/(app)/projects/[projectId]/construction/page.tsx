export { default } from "@/components/tasks/construction/pages/construction-page";
