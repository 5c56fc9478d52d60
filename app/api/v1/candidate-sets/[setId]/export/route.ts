export { GET } from "@/lib/tasks/construction/routes/candidate-set-export";
