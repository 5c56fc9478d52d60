import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A proxy in front of an OpenAI-compatible server (the stub LLM) that keeps the body of every chat completion request
 * as it arrived on its socket: what tests compare the engine's records of a call (its byte count, a replay's rebuilt
 * body) with.
 */
export async function bodyRecordingProxy(targetBaseUrl: string) {
  const target = new URL(targetBaseUrl);
  const bodies: Buffer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.url?.endsWith("/chat/completions")) bodies.push(body);
      const forward = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname}`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
