// Runs after `npm install`: generates the Prisma client. Prisma's CLI wants a schema engine path even
// for `generate`, which does not use it; pointing it at any file keeps it from trying to download one.
import { spawnSync } from "node:child_process";

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "package.json",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
const result = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], {
  stdio: "inherit",
  env,
});
if (result.status !== 0) process.exit(result.status ?? 1);

await import("./copy-browser-assets.mjs");
// The task registry's import maps (lib/generated/tasks/, components/generated/), from TASK_FOLDER_IDS in lib/tasks/index.ts.
await import("./generate-task-registry.mjs");
// The /api/v1 route index the OpenAPI document is built from (app/api/v1/api-route-index.generated.ts).
await import("./generate-api-route-index.mjs");
