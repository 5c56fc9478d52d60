// `npm run backup -- --out FILE [--without-secret]`: one archive with the database (a consistent
// snapshot; the app may keep running), the local store's files and DATA_DIR/secret. See docs/operations.md, "Backups".
import path from "node:path";
import { parseArgs } from "node:util";
import { refuseToStartWithPlaceholderSecrets } from "../lib/config/placeholder-secrets";
import { resolveDatabase } from "../lib/db/resolve-database";
import { createBackup } from "../lib/ops/backup";
import { secretInUse, storageLocation } from "../lib/ops/locations";

// A secret still set to the deployment files' placeholder (CHANGEME) stops it first, naming the variable.
refuseToStartWithPlaceholderSecrets("[backup]");
const usage = "usage: npm run backup -- --out FILE [--without-secret]";
let values: { out?: string; "without-secret"?: boolean };
try {
  ({ values } = parseArgs({ options: { out: { type: "string" }, "without-secret": { type: "boolean" } } }));
} catch (error) {
  console.error(`error: ${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (!values.out) {
  console.error(usage);
  process.exit(2);
}
const log = (line: string) => console.error(`[backup] ${line}`);
const database = await resolveDatabase(log, { migrate: false });
try {
  const secret = secretInUse();
  const manifest = await createBackup({
    databaseUrl: database.url,
    out: values.out,
    storage: storageLocation(),
    secret: secret.source === "data_dir" ? { ...secret, include: !values["without-secret"] } : secret,
    log,
  });
  const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
  log(
    `${manifest.tables.length} tables, ${rows} rows; storage: ${manifest.storage.kind === "local" ? `${manifest.storage.files} files` : "not copied"}; secret ${manifest.secret.included ? "included" : `not included (${manifest.secret.source})`}`,
  );
  console.log(path.resolve(values.out));
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await database.stop();
}
