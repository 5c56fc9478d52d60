// `npm run restore -- --in FILE`: restores a backup into a fresh DATA_DIR (the embedded server) or an
// empty database on DATABASE_URL, with the store's files and the secret; unfinished runs are queued again.
import { parseArgs } from "node:util";
import { appContext } from "../lib/app-context/app-context";
import { refuseToStartWithPlaceholderSecrets } from "../lib/config/placeholder-secrets";
import { createPrismaClient } from "../lib/db/prisma";
import { MIGRATIONS_DIR, resolveDatabase } from "../lib/db/resolve-database";
import { pgBossQueue, startBoss } from "../lib/judge/workers/queue";
import { secretFile, storageLocation } from "../lib/ops/locations";
import { requeueUnfinishedRuns, restoreBackup } from "../lib/ops/restore";

// A secret still set to the deployment files' placeholder (CHANGEME) stops it first, naming the variable.
refuseToStartWithPlaceholderSecrets("[restore]");
// The composition root: the application context (the task catalogue a restored run's requeue reads).
appContext();
const usage = "usage: npm run restore -- --in FILE";
let values: { in?: string };
try {
  ({ values } = parseArgs({ options: { in: { type: "string" } } }));
} catch (error) {
  console.error(`error: ${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (!values.in) {
  console.error(usage);
  process.exit(2);
}
const log = (line: string) => console.error(`[restore] ${line}`);
const database = await resolveDatabase(log, { migrate: false });
try {
  const storage = storageLocation();
  const result = await restoreBackup({
    archive: values.in,
    databaseUrl: database.url,
    migrationsDir: MIGRATIONS_DIR,
    storageDir: storage.kind === "local" ? storage.dir : null,
    secretFile: secretFile(),
    environmentSecret: process.env.APP_SECRET,
    log,
  });
  const boss = await startBoss(database.url, { supervise: false });
  const prisma = createPrismaClient(database.url);
  try {
    const requeued = await requeueUnfinishedRuns(prisma, pgBossQueue(boss));
    if (requeued > 0) log(`queued ${requeued} unfinished video(s) of unfinished runs again`);
  } finally {
    await prisma.$disconnect();
    await boss.stop({ graceful: false }).catch(() => {});
  }
  for (const warning of result.warnings) log(`warning: ${warning}`);
  const rows = Object.values(result.rows).reduce((sum, n) => sum + n, 0);
  log(
    `restored ${Object.keys(result.rows).length} tables (${rows} rows) and ${result.storageFiles} storage files from a backup of ${result.manifest.createdAt}; secret: ${result.secret.replaceAll("_", " ")}`,
  );
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await database.stop();
}
