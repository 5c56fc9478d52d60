import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { guardedFetch, piecesBody } from "./guarded-fetch";
import { clientForEndpoint, LlmError, openAiCompatibleClient } from "./llm-client";

const request = { model: "stub-vision", text: "hello", images: [] };
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers
      .splice(0)
      .map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))),
  );
});

/** A server on loopback that records each request (its path, authorization and body) before the handler answers. */
async function localServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const received: { url: string; authorization: string | undefined; body: string; length: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        url: req.url ?? "",
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString("utf8"),
        length: req.headers["content-length"],
      });
      handler(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, received };
}

const completion = JSON.stringify({
  id: "c",
  object: "chat.completion",
  created: 0,
  model: "stub-vision",
  choices: [{ index: 0, message: { role: "assistant", content: "fine" }, finish_reason: "stop" }],
});

describe("guardedFetch: the connect-time guard", () => {
  it("refuses a name that resolves to loopback, and a loopback address, without sending anything", async () => {
    const server = await localServer((_req, res) => res.end("{}"));
    const refusing = guardedFetch({ allowPrivate: () => false });
    await expect(refusing(`http://localhost:${server.port}/v1/models`)).rejects.toThrow(
      /localhost resolves to a loopback address/,
    );
    await expect(refusing(`http://127.0.0.1:${server.port}/v1/models`)).rejects.toThrow(/loopback/);
    await expect(refusing(`http://[::ffff:127.0.0.1]:${server.port}/v1/models`)).rejects.toThrow(
      /IPv4-mapped loopback/,
    );
    expect(server.received).toHaveLength(0);
  });

  it("refuses a port on fetch's list of ports never called (SMTP's, X11's), without connecting", async () => {
    const allowing = guardedFetch({ allowPrivate: () => true });
    await expect(allowing("http://127.0.0.1:25/")).rejects.toThrow(/bad port/);
    await expect(allowing("http://127.0.0.1:6000/")).rejects.toThrow(/bad port/);
  });

  it("makes the judge's call fail as not allowed, not retryable, with nothing sent", async () => {
    const server = await localServer((_req, res) => res.end("{}"));
    const client = openAiCompatibleClient({
      baseURL: `http://localhost:${server.port}/v1`,
      apiKey: "sk-secret-key-123456",
      guardedSend: guardedFetch({ allowPrivate: () => false }),
    });
    const error = await client.complete(request, { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe("not_allowed");
    expect((error as LlmError).retryable).toBe(false);
    expect(server.received).toHaveLength(0);
  });

  it("refuses at connect time, as not allowed, the calls of an endpoint's client (the Test's and the probes')", async () => {
    const server = await localServer((_req, res) => res.end("{}"));
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "");
    try {
      const client = clientForEndpoint({
        baseUrl: `http://localhost:${server.port}/v1`,
        apiKey: "sk-secret-key-123456",
      });
      const error = await client.complete(request, { timeoutMs: 5000 }).catch((e: unknown) => e);
      expect((error as LlmError).kind).toBe("not_allowed");
      expect((error as LlmError).message).toMatch(/localhost resolves to a loopback address/);
      expect(server.received).toHaveLength(0);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("never follows a redirect, so the API key never reaches the other address", async () => {
    const target = await localServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end("{}"),
    );
    const redirecting = await localServer((_req, res) =>
      res.writeHead(307, { location: `http://127.0.0.1:${target.port}/v1/chat/completions` }).end(),
    );
    const client = openAiCompatibleClient({
      baseURL: `http://127.0.0.1:${redirecting.port}/v1`,
      apiKey: "sk-secret-key-123456",
      guardedSend: guardedFetch({ allowPrivate: () => true }),
    });
    const error = await client.complete(request, { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).message).toMatch(/redirect \(307\).*not followed/);
    expect(redirecting.received.map((r) => r.authorization)).toEqual(["Bearer sk-secret-key-123456"]);
    expect(target.received).toHaveLength(0);
  });

  it("fails a call to a closed port as a network error with its code", async () => {
    const server = await localServer((_req, res) => res.end("{}"));
    const port = server.port;
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const client = openAiCompatibleClient({
      baseURL: `http://127.0.0.1:${port}/v1`,
      apiKey: null,
      guardedSend: guardedFetch({ allowPrivate: () => true }),
    });
    const error = await client.complete(request, { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect((error as LlmError).kind).toBe("network");
    expect((error as LlmError).message).toMatch(/ECONNREFUSED/);
  });
});

describe("guardedFetch: bodies and answers", () => {
  it("sends a piecesBody's pieces as the body with their own length, and the client reads the answer", async () => {
    const server = await localServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(completion),
    );
    const send = guardedFetch({ allowPrivate: () => true });
    const pieces = ['{"model":"m",', '"messages":[]', "}"].map((piece) => Buffer.from(piece, "utf8"));
    const response = await send(`http://127.0.0.1:${server.port}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "999" },
      body: piecesBody(pieces),
    });
    expect(response.status).toBe(200);
    expect(server.received.map((r) => [r.body, r.length])).toEqual([['{"model":"m","messages":[]}', "27"]]);

    const client = openAiCompatibleClient({
      baseURL: `http://127.0.0.1:${server.port}/v1`,
      apiKey: "k",
      guardedSend: send,
    });
    const answer = await client.complete(request, { timeoutMs: 5000 });
    expect(answer.finishReason).toBe("stop");
    expect(JSON.parse(server.received[1]!.body)).toMatchObject({ model: "stub-vision" });
  });

  it("cancels a call in flight when its signal aborts: the call rejects and the answer is not awaited", async () => {
    let answer: http.ServerResponse | null = null;
    const server = await localServer((_req, res) => (answer = res));
    const controller = new AbortController();
    const sent = guardedFetch({ allowPrivate: () => true })(`http://127.0.0.1:${server.port}/slow`, {
      method: "POST",
      body: "{}",
      signal: controller.signal,
    });
    while (server.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(sent).rejects.toThrow(/abort/i);
    expect(answer).not.toBeNull();
  });

  it("fails a call whose answer is larger than 64 MiB, and goes on with the next", { timeout: 30_000 }, async () => {
    let served = 0;
    const server = await localServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      if (served++ > 0) return res.end(completion);
      const piece = Buffer.alloc(1024 * 1024, "a");
      let sent = 0;
      const more = () => {
        while (sent < 65) {
          sent++;
          if (!res.write(piece)) return void res.once("drain", more);
        }
        res.end();
      };
      res.on("close", () => (sent = 65));
      more();
    });
    const client = openAiCompatibleClient({
      baseURL: `http://127.0.0.1:${server.port}/v1`,
      apiKey: null,
      guardedSend: guardedFetch({ allowPrivate: () => true }),
    });
    const huge = await client.complete(request, { timeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(huge).toBeInstanceOf(LlmError);
    expect((huge as LlmError).kind).toBe("network");
    expect((huge as LlmError).excerpt).toContain("larger than 64 MiB");
    expect((await client.complete(request, { timeoutMs: 5000 })).finishReason).toBe("stop");
  });
});
