// `npm run migrate` (the container image's `migrate` role): applies pending migrations (prisma/migrations) to
// DATABASE_URL and exits, so a deployment applies them once before its web servers and workers start. The web
// server and workers check again when they start; with nothing pending that is a no-op under the same advisory lock.
import { refuseToStartWithPlaceholderSecrets } from "../lib/config/placeholder-secrets";
import { applyMigrations } from "../lib/db/migrate";
import { MIGRATIONS_DIR } from "../lib/db/resolve-database";

refuseToStartWithPlaceholderSecrets("[migrate]");
const url = process.env.DATABASE_URL;
if (!url) {
  console.error("[migrate] DATABASE_URL is not set: it names the PostgreSQL database to migrate.");
  process.exit(2);
}
try {
  const result = await applyMigrations(url, MIGRATIONS_DIR, (line) => console.log(`[migrate] ${line}`));
  console.log(
    `[migrate] ${result.applied.length ? `applied ${result.applied.length} migration(s)` : "no migration pending"}; the schema is current`,
  );
} catch (error) {
  console.error(`[migrate] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
