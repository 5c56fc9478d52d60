export { GET } from "@/lib/tasks/vbench2/routes/run-vbench2";
