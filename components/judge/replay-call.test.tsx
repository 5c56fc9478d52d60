// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReplayCall } from "./replay-call";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderReplay(answer: (body: { dryRun: boolean }) => { status: number; json: unknown }) {
  const sent: { url: string; body: { dryRun: boolean } }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { dryRun: boolean };
      sent.push({ url, body });
      const { status, json } = answer(body);
      return new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json" } });
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ReplayCall runId="r1" callId="c1" />
    </QueryClientProvider>,
  );
  return sent;
}

const frameUrl = `data:image/jpeg;base64,${"A".repeat(500)}`;

describe("replaying a call from the inspector", () => {
  it("shows the body a replay would send, with its frames' data URLs cut short", async () => {
    const sent = renderReplay(() => ({
      status: 200,
      json: {
        dryRun: true,
        callId: "c1",
        mode: "images",
        bytes: 1234,
        body: {
          model: "m",
          messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: frameUrl } }] }],
        },
      },
    }));
    fireEvent.click(screen.getByRole("button", { name: "Show the request body" }));
    await waitFor(() => expect(screen.getByTestId("replay-body")).toBeTruthy());
    expect(sent).toEqual([{ url: "/api/v1/runs/r1/calls/c1/replay", body: { dryRun: true } }]);
    const shown = screen.getByTestId("replay-body").textContent!;
    expect(shown).toContain("1,234 bytes");
    expect(shown).toContain("(523 characters)");
    expect(shown).not.toContain("A".repeat(100));
  });

  it("sends the call again and shows the answer; an error answer is said", async () => {
    const sent = renderReplay((body) =>
      body.dryRun
        ? { status: 409, json: { error: { code: "conflict", message: "Frame f1 is gone: it cannot be replayed." } } }
        : {
            status: 200,
            json: {
              dryRun: false,
              callId: "c1",
              mode: "images",
              bytesSent: 2048,
              latencyMs: 31,
              answer: {
                ok: true,
                text: '{"score": 3}',
                finishReason: "stop",
                promptTokens: 90,
                completionTokens: 5,
                usageKnown: true,
              },
            },
          },
    );
    fireEvent.click(screen.getByRole("button", { name: "Replay this call" }));
    await waitFor(() => expect(screen.getByTestId("replay-answer")).toBeTruthy());
    expect(screen.getByTestId("replay-answer").textContent).toContain('{"score": 3}');
    expect(screen.getByTestId("replay-answer").textContent).toContain("2,048 bytes sent");
    expect(sent.map((s) => s.body)).toEqual([{ dryRun: false }]);

    fireEvent.click(screen.getByRole("button", { name: "Show the request body" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Frame f1 is gone: it cannot be replayed."));
  });
});
