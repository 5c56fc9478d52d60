import pg from "pg";
import { rootLogger } from "../observability/logger";
import { isConnectionLoss } from "./reconnecting-adapter";

/** SQLSTATE 08004, "server rejected establishment of connection": the client refuses the server, the reconnecting adapter waits on. */
export const OTHER_CLUSTER_CODE = "08004";

export class OtherClusterError extends Error {
  readonly code = OTHER_CLUSTER_CODE;

  constructor(
    readonly expected: string,
    readonly found: string,
  ) {
    super(
      `Refused the PostgreSQL server on this address: it is another cluster (system identifier ${found}, this process's database is ${expected}). ` +
        "Another server took the port while the database was down; FrameJury waits for its own to come back.",
    );
    this.name = "OtherClusterError";
  }
}

/**
 * Which PostgreSQL cluster a client's connections must reach: the system identifier (`pg_control_system()`, made by
 * initdb and kept by every restart, backup restore of the files and replica of it) of the first server it connected to.
 * A freed port can be taken by another server (another app's embedded PostgreSQL, a test's); a reconnecting client
 * that used it would read and write another database with the same name. Every new connection is checked before use
 * (`check`, a node-postgres pool's `onConnect`); one to another cluster is refused with an OtherClusterError, which
 * counts as a lost connection, so queries wait (with backoff) for the right server, then fail with that error.
 *
 * A server that does not let the user run `pg_control_system()` (some hosted services) is not checked.
 */
export class ClusterIdentity {
  private identifier: string | null;
  private unchecked = false;
  private readonly refused = new Set<string>();

  constructor(
    private readonly options: {
      /** Known ahead (say, from the process that started the server); otherwise the first connection's. */
      expected?: string | null;
      /** Told once per other cluster met. */
      onRefused?(error: OtherClusterError): void;
    } = {},
  ) {
    this.identifier = options.expected ?? null;
  }

  get expected(): string | null {
    return this.identifier;
  }

  readonly check = async (client: pg.ClientBase): Promise<void> => {
    if (this.unchecked) return;
    const found = await systemIdentifierOf(client);
    if (found === null) {
      this.unchecked = true;
      return;
    }
    if (this.identifier === null) this.identifier = found;
    else if (found !== this.identifier) {
      const error = new OtherClusterError(this.identifier, found);
      if (!this.refused.has(found)) {
        this.refused.add(found);
        this.options.onRefused?.(error);
      }
      throw error;
    }
  };
}

/**
 * Set by `npm start` for the processes it starts (the web server, each worker, each restart of one): the identifier
 * of the cluster it started or joined, so that a process started while another server holds the port refuses it from
 * its first connection, instead of taking that server's identifier for its own.
 */
export const SYSTEM_IDENTIFIER_VARIABLE = "FRAMEJURY_DATABASE_SYSTEM_IDENTIFIER";

/** The system identifier of the cluster `client` is connected to, or null when its user may not read it. */
async function systemIdentifierOf(client: pg.ClientBase): Promise<string | null> {
  try {
    const result = await client.query<{ id: string }>("SELECT system_identifier::text AS id FROM pg_control_system()");
    return result.rows[0]?.id ?? null;
  } catch (error) {
    if (isConnectionLoss(error)) throw error;
    return null;
  }
}

/** The system identifier of the cluster behind `url`, or null when its user may not read it. */
export async function readSystemIdentifier(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await systemIdentifierOf(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A ClusterIdentity that logs each other cluster it refuses: what the app's Prisma clients and pg-boss pools use. It
 * expects the identifier `npm start` passed down, when that is one (a malformed value is ignored: the first
 * connection's is used, as for processes started otherwise).
 */
export function loggedClusterIdentity(env: Record<string, string | undefined> = process.env): ClusterIdentity {
  const passed = env[SYSTEM_IDENTIFIER_VARIABLE];
  return new ClusterIdentity({
    expected: passed && /^\d{1,20}$/.test(passed) ? passed : null,
    onRefused: (error) =>
      rootLogger().error(
        { expected: error.expected, found: error.found },
        "refused a PostgreSQL server that is another cluster; waiting for this database's own",
      ),
  });
}
