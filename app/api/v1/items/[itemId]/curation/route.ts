export { GET, PUT } from "@/lib/tasks/construction/routes/item-curation";
