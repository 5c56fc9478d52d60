import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { guardedFetch, piecesBody } from "./guarded-fetch";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers
      .splice(0)
      .map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))),
  );
});

/** A server on loopback whose handler gets the request with its body read; its base URL. */
async function localServer(
  handler: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void,
): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handler(req, Buffer.concat(chunks), res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const fetchLocal = guardedFetch({ allowPrivate: () => true });
const fetchStreamed = guardedFetch({ allowPrivate: () => true, answers: "streamed" });

describe("guardedFetch's JSON answers, read in full before they are handed on", () => {
  it("reads one as text, JSON, bytes or a clone, once each, as a fetch Response would", async () => {
    const base = await localServer((_req, _body, res) =>
      res
        .writeHead(200, { "content-type": "application/json; charset=utf-8", "x-request-id": "req-1" })
        .end('{"answer":"ok ✓"}'),
    );
    const response = await fetchLocal(`${base}/v1/chat/completions`, { method: "POST", body: "{}" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("req-1");
    const copy = response.clone();
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ answer: "ok ✓" });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(/already been read/);
    expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe('{"answer":"ok ✓"}');
  });

  it(
    "hands one larger than 16 MB on as a stream before it ends, with every byte (answers: streamed)",
    { timeout: 30_000 },
    async () => {
      let finish = () => {};
      const big = "x".repeat(17 * 1024 * 1024);
      const base = await localServer((_req, _body, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write(`{"text":"${big}`);
        // The answer stays open until the test has its Response: read in full first, it would never come.
        finish = () => res.end('"}');
      });
      const response = await fetchStreamed(`${base}/v1/files`);
      finish();
      const parsed = (await response.json()) as { text: string };
      expect(parsed.text.length).toBe(big.length);
    },
  );

  it("fails the fetch when the connection closes before a JSON answer ends", async () => {
    const base = await localServer((_req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"choices":[');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    await expect(fetchLocal(`${base}/v1/chat/completions`, { method: "POST", body: "{}" })).rejects.toThrow();
    await expect(fetchStreamed(`${base}/v1/chat/completions`, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("decodes a compressed answer, and passes on every header but the encoding and length that no longer apply", async () => {
    const json = JSON.stringify({ answer: "ok ✓", padding: "x".repeat(5000) });
    const base = await localServer((req, _body, res) => {
      const encoding = req.url!.endsWith("/br") ? "br" : req.url!.endsWith("/deflate") ? "deflate" : "gzip";
      const bytes =
        encoding === "br"
          ? zlib.brotliCompressSync(json)
          : encoding === "deflate"
            ? zlib.deflateSync(json)
            : zlib.gzipSync(json);
      res.setHeader("set-cookie", ["a=1", "b=2"]);
      res
        .writeHead(200, {
          "content-type": "application/json",
          "content-encoding": encoding,
          "content-length": String(bytes.length),
          "retry-after": "7",
        })
        .end(bytes);
    });
    for (const encoding of ["gzip", "deflate", "br"]) {
      const response = await fetchLocal(`${base}/v1/chat/completions/${encoding}`, { method: "POST", body: "{}" });
      expect(await response.json()).toEqual(JSON.parse(json));
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(response.headers.get("content-length")).toBeNull();
      expect(response.headers.get("retry-after")).toBe("7");
      expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    }
  });

  it("sends the caller's headers, from a Headers object or a plain one, with the body's own length", async () => {
    const received: http.IncomingHttpHeaders[] = [];
    const base = await localServer((req, _body, res) => {
      received.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await fetchLocal(`${base}/a`, {
      method: "POST",
      headers: new Headers({ Authorization: "Bearer k", "X-Custom": "1", "Content-Length": "999" }),
      body: "{}",
    });
    await fetchLocal(`${base}/b`, {
      method: "POST",
      headers: { Authorization: "Bearer k", "X-Custom": "1" },
      body: "ab",
    });
    expect(received.map((h) => [h.authorization, h["x-custom"], h["content-length"], h["content-type"]])).toEqual([
      ["Bearer k", "1", "2", "text/plain;charset=UTF-8"],
      ["Bearer k", "1", "2", "text/plain;charset=UTF-8"],
    ]);
  });

  it("sends a form (the Batch API's file upload) as multipart, its boundary in the content type", async () => {
    const received: { type: string | undefined; body: string }[] = [];
    const base = await localServer((req, body, res) => {
      received.push({ type: req.headers["content-type"], body: body.toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const form = new FormData();
    form.append("purpose", "batch");
    form.append("file", new Blob(['{"custom_id":"a"}\n'], { type: "application/jsonl" }), "lines.jsonl");
    await fetchStreamed(`${base}/v1/files`, { method: "POST", body: form });
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(received[0]!.type ?? "")?.[1];
    expect(boundary).toBeTruthy();
    expect(received[0]!.body).toContain(`--${boundary}`);
    expect(received[0]!.body).toContain('name="purpose"\r\n\r\nbatch');
    expect(received[0]!.body).toContain('filename="lines.jsonl"');
    expect(received[0]!.body).toContain('{"custom_id":"a"}\n');
  });

  it("leaves an answer that is not JSON as a stream (answers: streamed)", async () => {
    const base = await localServer((_req, _body, res) =>
      res.writeHead(200, { "content-type": "application/jsonl" }).end('{"a":1}\n{"a":2}\n'),
    );
    const response = await fetchStreamed(`${base}/v1/files/f/content`);
    expect(await response.text()).toBe('{"a":1}\n{"a":2}\n');
  });
});

describe("piecesBody", () => {
  it("sends its pieces as the body, with their length, through guardedFetch", async () => {
    const received: { body: string; length: string | undefined }[] = [];
    const base = await localServer((req, body, res) => {
      received.push({ body: body.toString("utf8"), length: req.headers["content-length"] });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const pieces = ['{"model":"m",', '"messages":[]', "}"].map((piece) => Buffer.from(piece, "utf8"));
    await fetchLocal(`${base}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "999" },
      body: piecesBody(pieces),
    });
    expect(received).toEqual([{ body: '{"model":"m","messages":[]}', length: "27" }]);
  });
});
