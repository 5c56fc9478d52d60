import http from "node:http";
import { expect, test } from "@playwright/test";

// Large bodies against the production server, where Next.js hands the route a stream over the live socket: an
// anonymous caller's 300 MiB to better-auth's routes (one it knows and one it does not) is answered 413 naming the
// limit once 1 MiB is counted, and the server goes on answering. The bytes counting and cut-off themselves are
// tested in app/api/v1/request-body-limits.test.ts; this spec checks the real socket path.

const TOTAL = 300 * 1024 * 1024;
const CHUNK = Buffer.alloc(256 * 1024, 0x20);

/** POSTs up to TOTAL bytes (declared by Content-Length, or chunked) until the server answers; its status, text and the bytes sent by then. */
function postLarge(path: string, declared: boolean): Promise<{ status: number; text: string; sent: number }> {
  const port = Number(process.env.E2E_PORT);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request(
      {
        host: "localhost",
        port,
        path,
        method: "POST",
        headers: { "content-type": "application/json", ...(declared ? { "content-length": String(TOTAL) } : {}) },
      },
      (response) => {
        answered = true;
        let text = "";
        response.on("data", (d: Buffer) => (text += d.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text, sent }));
        response.on("error", reject);
      },
    );
    // The server may close the socket once it has answered: what is left of the body is not ours to send.
    request.on("error", (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < TOTAL) {
        sent += CHUNK.length;
        if (!request.write(CHUNK)) return void request.once("drain", pump);
      }
      if (!answered) request.end();
    };
    pump();
  });
}

for (const path of ["/api/auth/sign-in/email", "/api/auth/no-such-path"]) {
  for (const declared of [true, false]) {
    test(`POST ${path} with 300 MiB (${declared ? "Content-Length" : "chunked"}) is a 413 naming 1 MiB, and the server goes on`, async ({
      request,
    }) => {
      const answer = await postLarge(path, declared);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: "too_large" } });
      expect(answer.text).toContain("1 MiB");
      // Answered long before the whole body went out: the server stopped reading it.
      expect(answer.sent).toBeLessThan(TOTAL);
      expect((await request.get("/api/health")).status()).toBe(200);
      // A small body still reaches better-auth, which answers it (an unknown account: not a 413, not a crash).
      const origin = `http://localhost:${process.env.E2E_PORT}`;
      const signIn = await request.post("/api/auth/sign-in/email", {
        headers: { origin },
        data: { email: "nobody@example.com", password: "x".repeat(20) },
      });
      expect(signIn.status()).toBe(401);
    });
  }
}
