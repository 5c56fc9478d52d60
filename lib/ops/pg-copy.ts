import { once } from "node:events";
import type { Readable, Writable } from "node:stream";
import type pg from "pg";

/**
 * COPY … TO STDOUT and COPY … FROM STDIN over node-postgres, which has no COPY streams of its own:
 * each is a "submittable" (the interface pg-cursor and pg-copy-streams use) that pg hands the
 * protocol messages of its query. COPY's text format is exact for every type and any server version.
 */

interface PgConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: NodeJS.ReadableStream &
    NodeJS.WritableStream & { writableLength: number; writableHighWaterMark: number; pause(): void; resume(): void };
}

abstract class CopySubmittable {
  protected error: Error | null = null;
  protected rowCount = 0;
  private settle!: { resolve: (rows: number) => void; reject: (error: Error) => void };
  readonly done: Promise<number>;

  constructor(readonly text: string) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  submit(connection: PgConnection): void {
    connection.query(this.text);
  }

  handleCommandComplete(message: { text?: string }): void {
    const match = /^COPY (\d+)$/.exec(message.text ?? "");
    if (match) this.rowCount = Number(match[1]);
  }

  handleReadyForQuery(): void {
    if (this.error) this.settle.reject(this.error);
    else this.settle.resolve(this.rowCount);
  }

  handleError(error: Error): void {
    this.error ??= error;
    // After an error pg does not hand this query the ReadyForQuery that follows.
    this.settle.reject(this.error);
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(_message: { chunk: Buffer }, _connection: PgConnection): void {}
  handleCopyInResponse(connection: PgConnection): void {
    connection.sendCopyFail("This query does not send data.");
  }
}

class CopyOut extends CopySubmittable {
  private paused: PgConnection | null = null;
  private readonly resume = () => {
    this.paused?.stream.resume();
    this.paused = null;
  };

  constructor(
    text: string,
    private readonly target: Writable,
  ) {
    super(text);
  }

  override handleCopyData(message: { chunk: Buffer }, connection: PgConnection): void {
    // The chunk is a view into node-postgres' read buffer, which it reuses for the messages that follow
    // (a message straddling two socket reads is moved to the buffer's start, over earlier ones). A target
    // that keeps the chunk for later (gzip falling behind) would read other messages' bytes, length
    // headers' 0x00 among them: it gets its own copy.
    if (!this.target.write(Buffer.from(message.chunk)) && !this.paused) {
      // Slow target: stop reading from the server until it drains.
      this.paused = connection;
      connection.stream.pause();
      this.target.once("drain", this.resume);
    }
  }

  // The socket must flow again once the COPY is over, drained or not: the target may be ended next,
  // and an ended stream never emits 'drain'.
  override handleReadyForQuery(): void {
    this.finish();
    super.handleReadyForQuery();
  }

  override handleError(error: Error): void {
    this.finish();
    super.handleError(error);
  }

  private finish(): void {
    this.target.removeListener("drain", this.resume);
    this.resume();
  }
}

class CopyIn extends CopySubmittable {
  constructor(
    text: string,
    private readonly source: Readable,
  ) {
    super(text);
  }

  override handleCopyInResponse(connection: PgConnection): void {
    void (async () => {
      try {
        for await (const chunk of this.source) {
          connection.sendCopyFromChunk(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
          if (connection.stream.writableLength > connection.stream.writableHighWaterMark)
            await once(connection.stream, "drain");
        }
        connection.endCopyFrom();
      } catch (error) {
        this.error = error instanceof Error ? error : new Error(String(error));
        connection.sendCopyFail(this.error.message);
      }
    })();
  }
}

/** Runs `COPY (…) TO STDOUT`, writing the server's bytes to `target` (not ended); resolves with the row count. */
export async function copyOut(client: pg.ClientBase, sql: string, target: Writable): Promise<number> {
  const copy = new CopyOut(sql, target);
  void client.query(copy as unknown as pg.QueryConfig);
  return copy.done;
}

/** Runs `COPY … FROM STDIN` with the bytes of `source`; resolves with the row count. */
export async function copyIn(client: pg.ClientBase, sql: string, source: Readable): Promise<number> {
  const copy = new CopyIn(sql, source);
  void client.query(copy as unknown as pg.QueryConfig);
  return copy.done;
}
