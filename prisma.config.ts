import { defineConfig } from "prisma/config";

// Used by the Prisma CLI only (generate, and authoring migrations with the wasm schema engine).
// The app applies migrations itself at start-up: see lib/db/migrate.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/framejury" },
});
