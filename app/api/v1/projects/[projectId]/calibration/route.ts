export { GET } from "@/lib/tasks/hallucination/routes/calibration";
