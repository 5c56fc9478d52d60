export { default } from "@/components/tasks/vbench2/pages/leaderboard-page";
