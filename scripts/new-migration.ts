// Authoring tool (not used at run time): diff prisma/schema.prisma against the committed migrations
// and write a new one, through Prisma's WebAssembly schema engine, on a scratch database of the
// embedded server (or of the server behind DATABASE_URL) that is dropped afterwards.
//   npm run db:new-migration -- --name add_videos
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { databaseUrl, ensureDatabase } from "../lib/db/embedded-postgres";
import { dropDatabase } from "../testkit/testing/test-database";
import { stripSqlLineComments } from "./lib/strip-sql-comments";
import { resolveDatabase } from "../lib/db/resolve-database";

const { values } = parseArgs({ options: { name: { type: "string" } } });
if (!values.name || !/^[a-z0-9_]+$/.test(values.name)) {
  console.error("usage: npm run db:new-migration -- --name <snake_case_name>");
  process.exit(2);
}
const source = path.resolve(process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "../shared/tools/prisma-schema-engine-wasm.mjs");
if (!fs.existsSync(source)) {
  console.error(`No schema engine at ${source}: set PRISMA_SCHEMA_ENGINE_BINARY.`);
  process.exit(2);
}
const cache = path.resolve("node_modules/.cache/framejury");
// The shim imports `pg` and Prisma's wasm engine as bare specifiers, which ESM resolves from the
// file's own folder: run a copy from inside the project so it finds this project's node_modules.
const engine = path.join(cache, "schema-engine.mjs");
fs.mkdirSync(cache, { recursive: true });
fs.copyFileSync(source, engine);
fs.chmodSync(engine, 0o755);

// The wasm engine splits a migration at every ";", even one inside a comment, so it is given copies
// of the committed migrations without their comment lines (the committed files stay byte-identical:
// installed databases keep their checksums).
const workDir = path.join(cache, "new-migration");
fs.rmSync(workDir, { recursive: true, force: true });
const workMigrations = path.join(workDir, "migrations");
fs.mkdirSync(workMigrations, { recursive: true });
const committed = path.resolve("prisma/migrations");
const before = new Set<string>();
for (const entry of fs.readdirSync(committed, { withFileTypes: true })) {
  if (!entry.isDirectory()) {
    fs.copyFileSync(path.join(committed, entry.name), path.join(workMigrations, entry.name));
    continue;
  }
  before.add(entry.name);
  fs.mkdirSync(path.join(workMigrations, entry.name));
  const sql = fs.readFileSync(path.join(committed, entry.name, "migration.sql"), "utf8");
  fs.writeFileSync(path.join(workMigrations, entry.name, "migration.sql"), stripSqlLineComments(sql));
}
const config = path.join(workDir, "prisma.config.ts");
fs.writeFileSync(
  config,
  `import { defineConfig } from "prisma/config";\nexport default defineConfig({ schema: ${JSON.stringify(path.resolve("prisma/schema.prisma"))}, migrations: { path: ${JSON.stringify(workMigrations)} }, datasource: { url: process.env.DATABASE_URL! } });\n`,
);

const server = await resolveDatabase((line) => console.error(line), { migrate: false });
const scratch = `framejury_new_migration_${process.pid}`;
const baseUrl = databaseUrl(server.url, "postgres");
await ensureDatabase(baseUrl, scratch);
let status = 1;
try {
  const result = spawnSync("npx", ["prisma", "migrate", "dev", "--name", values.name, "--config", config], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: databaseUrl(server.url, scratch), PRISMA_SCHEMA_ENGINE_BINARY: engine },
  });
  status = result.status ?? 1;
  for (const entry of fs.readdirSync(workMigrations, { withFileTypes: true })) {
    if (!entry.isDirectory() || before.has(entry.name)) continue;
    fs.cpSync(path.join(workMigrations, entry.name), path.join(committed, entry.name), { recursive: true });
    console.error(`wrote prisma/migrations/${entry.name}/migration.sql`);
  }
} finally {
  await dropDatabase(baseUrl, scratch);
  await server.stop();
}
process.exit(status);
