export { default } from "@/components/tasks/vbench2/pages/vbench2-page";
