export { default } from "@/components/tasks/captions/pages/captions-page";
