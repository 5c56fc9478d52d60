import { NextRequest } from "next/server";
import * as pageStaticInfo from "next/dist/build/analysis/get-page-static-info";
import { describe, expect, it } from "vitest";
import { config, proxy } from "../proxy";
import { malformedPathReason } from "../lib/api/malformed-path";

// How Next.js compiles the proxy's matchers (exported by the module, left out of its type declarations).
const { getMiddlewareMatchers } = pageStaticInfo as unknown as {
  getMiddlewareMatchers(matchers: readonly string[], nextConfig: object): { regexp: string }[];
};

const request = (path: string) => new NextRequest(new URL(path, "http://localhost:3000"));

describe("a path with a malformed percent-escape", () => {
  it("is told apart from a path that decodes", () => {
    expect(malformedPathReason("/api/v1/clips/%E0%A4%A")).toMatch(/malformed percent-escape/);
    expect(malformedPathReason("/api/v1/clips/%E0%A4")).toMatch(/malformed percent-escape/);
    expect(malformedPathReason("/projects/%zz")).toMatch(/malformed percent-escape/);
    expect(malformedPathReason("/api/v1/clips/%E0%A4%A4")).toBeNull();
    expect(malformedPathReason("/api/v1/clips/abc")).toBeNull();
  });

  it("gets the proxy's 400 in the API's JSON error shape under /api/, and plain text on a page", async () => {
    const api = await proxy(request("/api/v1/clips/%E0%A4%A"));
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({
      error: { code: "invalid_request", message: expect.stringMatching(/malformed percent-escape/) },
    });
    const page = await proxy(request("/projects/%E0%A4%A/videos"));
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/malformed percent-escape/);
    // A path that decodes goes on: an API route untouched, a page with its policy.
    const fine = await proxy(request("/api/v1/clips/%E0%A4%A4"));
    expect(fine.headers.get("x-middleware-next")).toBe("1");
    expect(fine.headers.get("content-security-policy")).toBeNull();
    expect((await proxy(request("/projects/x"))).headers.get("content-security-policy")).toContain("script-src");
  });

  it("reaches the proxy on an API path, while API paths without an escape still do not", () => {
    const matchers = getMiddlewareMatchers(config.matcher, {});
    const matches = (path: string) => matchers.some((m) => new RegExp(m.regexp).test(path));
    expect(matches("/api/v1/clips/%E0%A4%A")).toBe(true);
    expect(matches("/api/v1/projects/%zz/videos")).toBe(true);
    expect(matches("/projects/%E0%A4%A")).toBe(true);
    expect(matches("/api/v1/uploads/abc")).toBe(false);
    expect(matches("/api/v1/clips/abc")).toBe(false);
  });
});
