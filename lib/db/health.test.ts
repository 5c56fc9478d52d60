import net from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { GET as getHealth } from "@/app/api/health/route";
import { checkDatabase, healthThresholdsFromEnv } from "./health";

/**
 * A TCP proxy to the test's PostgreSQL that holds each of the server's answers for `delayMs` once the connection is
 * set up: a server that is up, but slow.
 */
async function slowProxy(target: URL, delayMs: number) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    // The start-up exchange (authentication, parameters) goes through at once; from the first query ('Q' message)
    // on, the server's answers wait.
    let querying = false;
    client.on("data", (chunk: Buffer) => {
      if (chunk[0] === 0x51) querying = true;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!querying) client.write(chunk);
      else setTimeout(() => client.writable && client.write(chunk), delayMs);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", close).on("error", close);
    upstream.on("close", close).on("error", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const realUrl = process.env.DATABASE_URL!;
const proxies: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
});
const savedEnv = { ...process.env };
afterEach(() => {
  for (const name of ["DATABASE_URL", "HEALTH_DB_SLOW_MS", "HEALTH_DB_TIMEOUT_MS"]) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
});

describe("the database health check", () => {
  it("says ok with the latency when the database answers within the threshold", async () => {
    const health = await checkDatabase(realUrl, { slowMs: 10_000, timeoutMs: 20_000 });
    expect(health).toEqual({ db: "ok", latencyMs: expect.any(Number) });
  });

  it("says slow with the latency, not down, when the answer comes after the threshold", async () => {
    const proxy = await slowProxy(new URL(realUrl), 400);
    proxies.push(proxy);
    const health = await checkDatabase(proxy.url, { slowMs: 200, timeoutMs: 20_000 });
    expect(health).toMatchObject({ db: "slow", answered: true });
    expect(health.db === "slow" && health.latencyMs).toBeGreaterThanOrEqual(400);
  });

  it("says slow, with the time waited, when a connected server has not answered by the timeout", async () => {
    const proxy = await slowProxy(new URL(realUrl), 5000);
    proxies.push(proxy);
    const health = await checkDatabase(proxy.url, { slowMs: 100, timeoutMs: 500 });
    expect(health).toMatchObject({ db: "slow", answered: false });
    expect(health.db === "slow" && health.latencyMs).toBeGreaterThanOrEqual(500);
  });

  it("says down when nothing accepts the connection", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const url = new URL(realUrl);
    url.hostname = "127.0.0.1";
    url.port = String(port);
    expect(await checkDatabase(url.toString(), { slowMs: 100, timeoutMs: 2000 })).toEqual({ db: "down" });
    expect(await checkDatabase(undefined, { slowMs: 100, timeoutMs: 2000 })).toEqual({ db: "down" });
  });

  it("GET /api/health answers 200 'slow' with the latency for a slow database, with the threshold from HEALTH_DB_SLOW_MS", async () => {
    const proxy = await slowProxy(new URL(realUrl), 300);
    proxies.push(proxy);
    process.env.DATABASE_URL = proxy.url;
    process.env.HEALTH_DB_SLOW_MS = "100";
    const response = await getHealth(new Request("http://localhost:3000/api/health"));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; db: string; latencyMs: number };
    expect(body).toMatchObject({ status: "degraded", db: "slow" });
    expect(body.latencyMs).toBeGreaterThanOrEqual(300);
  });

  it("GET /api/health answers 503 'down' when the database cannot be reached", async () => {
    process.env.DATABASE_URL = "postgresql://nobody@127.0.0.1:1/none";
    const response = await getHealth(new Request("http://localhost:3000/api/health"));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "degraded", db: "down" });
  });

  it("reads its thresholds from the environment, falling back to the defaults on a bad value", () => {
    expect(healthThresholdsFromEnv({})).toEqual({ slowMs: 1000, timeoutMs: 5000 });
    expect(healthThresholdsFromEnv({ HEALTH_DB_SLOW_MS: "250", HEALTH_DB_TIMEOUT_MS: "3000" })).toEqual({
      slowMs: 250,
      timeoutMs: 3000,
    });
    expect(healthThresholdsFromEnv({ HEALTH_DB_SLOW_MS: "fast", HEALTH_DB_TIMEOUT_MS: "-1" })).toEqual({
      slowMs: 1000,
      timeoutMs: 5000,
    });
    // The timeout is never shorter than the slow threshold.
    expect(healthThresholdsFromEnv({ HEALTH_DB_SLOW_MS: "8000" })).toEqual({ slowMs: 8000, timeoutMs: 8000 });
  });
});
