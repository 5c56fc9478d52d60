export { GET } from "@/lib/tasks/captions/routes/caption-leaderboard";
