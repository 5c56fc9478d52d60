export { GET } from "@/lib/tasks/vbench2/routes/vbench2-frames";
