export { POST } from "@/lib/tasks/construction/routes/item-restore";
