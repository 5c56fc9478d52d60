export { POST } from "@/lib/tasks/construction/routes/candidate-set-qa-sets";
