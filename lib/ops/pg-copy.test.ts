import { Writable } from "node:stream";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyOut } from "./pg-copy";

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
});

/** A target that keeps every chunk it is given and reads them only at the end, as gzip does when it falls behind. */
function keepingTarget(): { target: Writable; bytes(): Buffer } {
  const chunks: Buffer[] = [];
  const target = new Writable({
    highWaterMark: 64 * 1024 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  return { target, bytes: () => Buffer.concat(chunks) };
}

describe("copyOut", () => {
  it("hands the target bytes that stay intact after later server messages arrive (rows straddle the socket's reads)", async () => {
    // Rows of uneven length, several MB in all: COPY messages straddle many socket reads, which is
    // when node-postgres' parser moves a partial message within a buffer it reuses.
    const query = `SELECT i, repeat(md5(i::text), 1 + i % 97) AS text FROM generate_series(1, 4000) AS i`;
    const { target, bytes } = keepingTarget();
    const rows = await copyOut(client, `COPY (${query}) TO STDOUT`, target);
    expect(rows).toBe(4000);

    const { rows: expected } = await client.query<{ i: number; text: string }>(`${query} ORDER BY i`);
    const dumped = bytes().toString("utf8");
    expect(dumped.includes("\u0000")).toBe(false);
    expect(dumped).toBe(expected.map((row) => `${row.i}\t${row.text}\n`).join(""));
  });
});
