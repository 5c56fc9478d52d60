import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { baseUrlProblem } from "./base-url";
import { assertEndpointUrlAllowed, EndpointNotAllowedError, nonPublicAddressReason } from "./endpoint-url-policy";
import { guardedFetch } from "../calls/guarded-fetch";
import { LlmError, openAiCompatibleClient } from "../calls/llm-client";

const request = { model: "stub-vision", text: "hello", images: [] };

let stub: StubServer;
beforeAll(async () => {
  stub = await startStubLlm();
});
afterAll(() => stub.close());
afterEach(() => {
  stub.reset();
  vi.unstubAllEnvs();
});

/** A local HTTP server that records what it received and answers with `handler`. */
async function localServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const received: { url: string; authorization: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    received.push({ url: req.url ?? "", authorization: req.headers.authorization });
    req.resume();
    req.on("end", () => handler(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("nonPublicAddressReason", () => {
  it.each([
    ["127.0.0.1", "a loopback"],
    ["127.255.1.2", "a loopback"],
    ["10.0.0.5", "a private"],
    ["172.16.0.1", "a private"],
    ["172.31.255.255", "a private"],
    ["192.168.1.1", "a private"],
    ["100.64.0.1", "a carrier-grade NAT (shared)"],
    ["169.254.169.254", "a link-local"],
    ["0.0.0.0", 'an unspecified ("this network")'],
    ["224.0.0.251", "a multicast"],
    ["255.255.255.255", "a reserved (or broadcast)"],
    ["::", "an unspecified"],
    ["::1", "a loopback"],
    ["fc00::1", "a unique-local"],
    ["fd12:3456::1", "a unique-local"],
    ["fe80::1%eth0", "a link-local"],
    ["ff02::1", "a multicast"],
    ["::ffff:127.0.0.1", "an IPv4-mapped loopback"],
    ["::ffff:a9fe:a9fe", "an IPv4-mapped link-local"],
    ["::ffff:10.1.2.3", "an IPv4-mapped private"],
    ["64:ff9b::192.168.0.1", "an NAT64 private"],
    ["2002:7f00:1::", "an 6to4 loopback"],
  ])("refuses %s as %s address", (address, reason) => {
    expect(nonPublicAddressReason(address)).toBe(reason);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "169.255.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "2002:808:808::",
  ])("allows the public address %s", (address) => {
    expect(nonPublicAddressReason(address)).toBeNull();
  });

  it("refuses what is not an address at all", () => {
    expect(nonPublicAddressReason("not-an-ip")).toBe("an unparseable");
    expect(nonPublicAddressReason("1:2:3")).toBe("an unparseable");
  });
});

describe("assertEndpointUrlAllowed (when an endpoint is created or changed)", () => {
  const resolvesTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address }));

  it("checks every address a name resolves to, not just the first", async () => {
    await expect(
      assertEndpointUrlAllowed("https://llm.example.test/v1", {
        allowPrivate: false,
        lookupAll: resolvesTo("93.184.215.14", "10.0.0.7"),
      }),
    ).rejects.toThrow(/llm\.example\.test resolves to a private address/);
    await expect(
      assertEndpointUrlAllowed("https://llm.example.test/v1", {
        allowPrivate: false,
        lookupAll: resolvesTo("2606:4700::1", "fd00::2"),
      }),
    ).rejects.toThrow(/unique-local/);
    await expect(
      assertEndpointUrlAllowed("https://llm.example.test/v1", {
        allowPrivate: false,
        lookupAll: resolvesTo("93.184.215.14", "2606:4700::1"),
      }),
    ).resolves.toBeUndefined();
  });

  it("names the class of address but never the address itself", async () => {
    const error = await assertEndpointUrlAllowed("http://internal.example.test/v1", {
      allowPrivate: false,
      lookupAll: resolvesTo("10.9.8.7"),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EndpointNotAllowedError);
    expect((error as Error).message).not.toContain("10.9.8.7");
  });

  it("refuses a name that does not resolve, and resolves localhost with the real resolver", async () => {
    const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    await expect(
      assertEndpointUrlAllowed("http://nowhere.example.test/v1", {
        allowPrivate: false,
        lookupAll: async () => Promise.reject(notFound),
      }),
    ).rejects.toThrow(/could not be resolved \(ENOTFOUND\)/);
    await expect(assertEndpointUrlAllowed("http://localhost:8000/v1", { allowPrivate: false })).rejects.toThrow(
      /loopback/,
    );
  });

  it("allows private hosts with ALLOW_PRIVATE_ENDPOINTS=1, but never a malformed base URL", async () => {
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "1");
    await expect(assertEndpointUrlAllowed("http://localhost:8000/v1")).resolves.toBeUndefined();
    await expect(assertEndpointUrlAllowed("http://localhost:8000/v1?api-version=1")).rejects.toThrow(/query string/);
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "");
    await expect(assertEndpointUrlAllowed("http://localhost:8000/v1")).rejects.toThrow(/ALLOW_PRIVATE_ENDPOINTS=1/);
  });

  it("reads the form of a base URL", () => {
    expect(baseUrlProblem("https://api.openai.com/v1")).toBeNull();
    expect(baseUrlProblem("https://key@api.openai.com/v1")).toMatch(/user name/);
    expect(baseUrlProblem("https://api.openai.com/v1?")).toMatch(/query/);
    expect(baseUrlProblem("gopher://x/")).toMatch(/http\(s\)/);
  });
});

describe("the connect-time guard (guardedFetch)", () => {
  it("refuses to connect to a name that resolves to loopback, without sending anything", async () => {
    const fetchGuarded = guardedFetch({ allowPrivate: () => false });
    const port = new URL(stub.baseURL).port;
    await expect(fetchGuarded(`http://localhost:${port}/v1/models`)).rejects.toThrow(
      /localhost resolves to a loopback address/,
    );
    await expect(fetchGuarded(`http://127.0.0.1:${port}/v1/models`)).rejects.toThrow(/loopback/);
    await expect(fetchGuarded(`http://[::ffff:127.0.0.1]:${port}/v1/models`)).rejects.toThrow(/IPv4-mapped loopback/);
    expect(stub.requests).toHaveLength(0);
  });

  it("makes the judge's call fail as not allowed, once, without retrying, when the flag is off", async () => {
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "");
    const client = openAiCompatibleClient({
      baseURL: stub.baseURL.replace("127.0.0.1", "localhost"),
      apiKey: "sk-secret-key-123456",
    });
    const error = await client.complete(request, { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe("not_allowed");
    expect((error as LlmError).retryable).toBe(false);
    expect(stub.requests).toHaveLength(0);

    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "1");
    const answer = await client.complete(request, { timeoutMs: 5000 });
    expect(answer.finishReason).toBe("stop");
    expect(stub.requests).toHaveLength(1);
  });

  it("never follows a redirect, so the API key never reaches the other address", async () => {
    const target = await localServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const redirecting = await localServer((_req, res) => {
      res.writeHead(307, { location: `http://localhost:${target.port}/v1/chat/completions` }).end();
    });
    try {
      const client = openAiCompatibleClient({
        baseURL: `http://127.0.0.1:${redirecting.port}/v1`,
        apiKey: "sk-secret-key-123456",
      });
      const error = await client.complete(request, { timeoutMs: 5000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmError);
      expect((error as LlmError).message).toMatch(/redirect \(307\).*not followed/);
      expect(redirecting.received).toHaveLength(1);
      expect(redirecting.received[0]!.authorization).toBe("Bearer sk-secret-key-123456");
      expect(target.received).toHaveLength(0);
    } finally {
      await Promise.all([target.close(), redirecting.close()]);
    }
  });

  it("keeps only a short, sanitised excerpt of an error body, in the excerpt and the message", async () => {
    const body = `{"error":{"message":"Invalid key sk-secret-key-123456\\u0000\\u001b[31m at /srv/app/server.py:10 ${"x".repeat(500)}"}}`;
    const failing = await localServer((_req, res) => {
      res.writeHead(400, { "content-type": "application/json" }).end(body);
    });
    try {
      const client = openAiCompatibleClient({
        baseURL: `http://127.0.0.1:${failing.port}/v1`,
        apiKey: "sk-secret-key-123456",
      });
      const error = (await client.complete(request, { timeoutMs: 5000 }).catch((e: unknown) => e)) as LlmError;
      // A refused request's message carries the provider's own words (issue 23.12), sanitised as the excerpt is.
      expect(error.message).toMatch(
        /^The endpoint refused the request \(400\)\. The endpoint said: "Invalid key \[redacted\]/,
      );
      expect(error.message).not.toContain("sk-secret");
      expect(error.message).not.toContain("/srv/app");
      expect(error.message).not.toMatch(/[\u0000-\u001f]/);
      expect(error.excerpt).toMatch(/^Invalid key \[redacted\]/);
      expect(error.excerpt!.length).toBeLessThanOrEqual(200);
      expect(error.excerpt).not.toMatch(/[\u0000-\u001f]/);
      expect(error.excerpt).not.toContain("sk-secret");
      expect(error.excerpt).not.toContain("/srv/app");
    } finally {
      await failing.close();
    }
  });
});
