export { default } from "@/components/tasks/captions/pages/caption-page";
