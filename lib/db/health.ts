import pg from "pg";

/** True when the database answers a trivial query within `timeoutMs`. */
export async function databaseIsUp(connectionString: string | undefined, timeoutMs = 2000): Promise<boolean> {
  if (!connectionString) return false;
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
