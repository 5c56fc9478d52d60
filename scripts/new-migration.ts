// Authoring tool (not used at run time): diff prisma/schema.prisma against the committed migrations
// and write a new one, on the embedded server or DATABASE_URL, through Prisma's WebAssembly schema engine.
//   npm run db:new-migration -- --name add_videos
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { resolveDatabase } from "../lib/db/resolve-database";

const { values } = parseArgs({ options: { name: { type: "string" } } });
if (!values.name) {
  console.error("usage: npm run db:new-migration -- --name <snake_case_name>");
  process.exit(2);
}
const source = path.resolve(process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "../shared/tools/prisma-schema-engine-wasm.mjs");
if (!fs.existsSync(source)) {
  console.error(`No schema engine at ${source}: set PRISMA_SCHEMA_ENGINE_BINARY.`);
  process.exit(2);
}
// The shim imports `pg` and Prisma's wasm engine as bare specifiers, which ESM resolves from the
// file's own folder: run a copy from inside the project so it finds this project's node_modules.
const engine = path.resolve("node_modules/.cache/framejury/schema-engine.mjs");
fs.mkdirSync(path.dirname(engine), { recursive: true });
fs.copyFileSync(source, engine);
fs.chmodSync(engine, 0o755);
const db = await resolveDatabase((line) => console.error(line));
const result = spawnSync("npx", ["prisma", "migrate", "dev", "--name", values.name], {
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: db.url, PRISMA_SCHEMA_ENGINE_BINARY: engine },
});
await db.stop();
process.exit(result.status ?? 1);
