export { default } from "@/components/tasks/hallucination/pages/calibration-page";
