import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { seedingClient } from "./seeding-client";

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, body: Buffer) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server that counts connections and fully received requests; `onConnection` may drop a connection unread. */
async function server(handler: Handler, onConnection?: (socket: import("node:net").Socket, index: number) => boolean) {
  const stats = {
    connections: 0,
    requests: [] as { method: string; url: string; body: string; connection: string | undefined }[],
  };
  const srv = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      stats.requests.push({
        method: request.method!,
        url: request.url!,
        body: body.toString("utf8"),
        connection: request.headers.connection,
      });
      handler(request, response, body);
    });
  });
  srv.on("connection", (socket) => {
    const index = stats.connections++;
    if (onConnection && !onConnection(socket, index)) socket.destroy();
  });
  servers.push(srv);
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return { baseUrl: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, stats };
}

const ok: Handler = (_request, response, body) => {
  response.writeHead(201, { "content-type": "application/json" });
  response.end(JSON.stringify({ id: "v1", bytes: body.length }));
};

describe("seedingClient", () => {
  it("opens a new connection for each request and asks the server to close it, so no idle pooled socket is reused", async () => {
    const { baseUrl, stats } = await server(ok);
    const api = seedingClient({ baseUrl, apiKey: "k" });
    for (let i = 0; i < 3; i++) await api("/api/v1/things", { json: { i } });
    expect(stats.requests).toHaveLength(3);
    expect(stats.connections).toBe(3);
    expect(stats.requests.every((r) => r.connection === "close")).toBe(true);
  });

  it("retries a POST whose connection the server dropped before reading it, and it reaches the server once", async () => {
    // The first two connections are closed unread, as a server closing an idle keep-alive socket does; the
    // body is larger than the socket buffers take, so the client sees the connection break while writing it.
    const { baseUrl, stats } = await server(ok, (_socket, index) => index >= 2);
    const lines: string[] = [];
    const api = seedingClient({ baseUrl, apiKey: "k", backoffMs: 10, log: (line) => lines.push(line) });
    const form = new FormData();
    form.set("path", "Demo model/a.mp4");
    form.set("file", new Blob([new Uint8Array(32 * 1024 * 1024)]), "a.mp4");
    const answer = await api("/api/v1/projects/p/videos", { form });
    expect(answer.id).toBe("v1");
    expect(stats.requests).toHaveLength(1);
    expect(stats.requests[0]!.body).toContain('name="path"');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toMatch(/POST \/api\/v1\/projects\/p\/videos: (ECONNRESET|EPIPE), retrying/);
  });

  it("retries a GET while the server is not listening yet, up to its attempts, then names the request", async () => {
    const { baseUrl } = await server(ok);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const api = seedingClient({ baseUrl, apiKey: "k", attempts: 3, backoffMs: 5 });
    await expect(api("/api/v1/projects/p")).rejects.toThrow(
      /GET \/api\/v1\/projects\/p failed \(ECONNREFUSED; after 3 attempts\)/,
    );
  });

  it("does not repeat a POST the server received in full before the connection broke", async () => {
    const { baseUrl, stats } = await server((_request, response) => response.socket?.destroy());
    const api = seedingClient({ baseUrl, apiKey: "k", backoffMs: 5 });
    await expect(api("/api/v1/projects/p/runs", { json: { pipeline: "hallucination" } })).rejects.toThrow(
      /not retried: the server may have received it/,
    );
    expect(stats.requests).toHaveLength(1);
  });

  it("reports an error status with the server's answer", async () => {
    const { baseUrl } = await server((_request, response) => {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: "bad path" }));
    });
    const api = seedingClient({ baseUrl, apiKey: "k" });
    await expect(api("/api/v1/x", { json: {} })).rejects.toThrow('POST /api/v1/x: 400 {"error":"bad path"}');
  });
});
