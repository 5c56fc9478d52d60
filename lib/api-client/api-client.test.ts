import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiFetch, postJson } from "./index";

afterEach(() => vi.unstubAllGlobals());

describe("the browser's API client (lib/api-client)", () => {
  it("reads a JSON answer, sends JSON bodies, and throws the server's error code and message as an ApiError", async () => {
    const fetch = vi.fn(async (_input: string, init?: RequestInit) =>
      init?.method === "POST"
        ? Response.json({ error: { code: "conflict", message: "Changed elsewhere." } }, { status: 409 })
        : Response.json({ ok: 1 }),
    );
    vi.stubGlobal("fetch", fetch);
    expect(await apiFetch<{ ok: number }>("/api/v1/me")).toEqual({ ok: 1 });
    const failed = await postJson("/api/v1/queues/q/next", { a: 1 }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ status: 409, code: "conflict", message: "Changed elsewhere." });
    expect(fetch.mock.calls[1]![1]).toMatchObject({
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
  });
});
