// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { EndpointCapabilities } from "@/lib/judge/endpoints/endpoint-capabilities";
import { EndpointForm, type EndpointRow } from "./endpoint-form";

/* The endpoint form's input mode: the probe's findings per mode, a warning (not a block) on a refused mode, and the mode saved. */
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }) }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const capabilities: EndpointCapabilities = {
  images: "yes",
  maxImages: 16,
  jsonMode: "json_schema",
  topLogprobs: true,
  usage: true,
  contextLength: null,
  latencyMs: 12,
  notes: [],
  maxBodyBytes: null,
  inputModes: {
    images: { accepted: "yes", refusal: null, maxFrames: 16, maxBodyBytes: null, sawFrames: null },
    "video-frames": { accepted: "yes", refusal: null, maxFrames: 64, maxBodyBytes: 48_000, sawFrames: 4 },
    "video-file": {
      accepted: "no",
      refusal: "Invalid content part type: video_url is not supported.",
      maxFrames: null,
      maxBodyBytes: null,
      sawFrames: null,
    },
  },
};

const endpoint: EndpointRow = {
  id: "e1",
  name: "Qwen",
  baseUrl: "https://vllm.example.com/v1",
  model: "Qwen/Qwen2.5-VL-7B-Instruct",
  hasApiKey: false,
  imageDetail: "auto",
  temperature: 0,
  maxConcurrency: 4,
  requestsPerMinute: null,
  timeoutSeconds: 120,
  structuredOutput: true,
  pricePer1kInput: null,
  pricePer1kOutput: null,
  supportsBatchApi: false,
  maxTokens: null,
  apiVersion: null,
  sendImageDetail: true,
  capabilities,
  probedAt: "2026-11-27T22:00:00.000Z",
  requestLogprobs: false,
  topLogprobs: 5,
  inputMode: "images",
  archivedAt: null,
};

function renderForm(row: EndpointRow = endpoint) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <EndpointForm projectId="p1" endpoint={row} />
    </QueryClientProvider>,
  );
}

describe("EndpointForm: input mode", () => {
  it("lists what the probe found of each mode", () => {
    renderForm();
    const findings = screen.getByTestId("endpoint-input-mode-findings").textContent ?? "";
    expect(findings).toContain("images: accepted, up to 16 images per request");
    expect(findings).toContain(
      "video-frames: accepted, up to 64 frames per video, bodies up to 47 KiB, said it saw 4 frames",
    );
    expect(findings).toContain("video-file: refused: “Invalid content part type: video_url is not supported.”");
    expect(screen.queryByTestId("endpoint-input-mode-warning")).toBeNull();
  });

  it("says whether the clip went by a signed URL, and when only that way", async () => {
    const { findingLine } = await import("./endpoint-input-mode");
    const file = { accepted: "yes", refusal: null, maxFrames: 4, sawFrames: 4 } as const;
    expect(findingLine("video-file", { ...file, maxBodyBytes: null, byUrl: "yes" })).toBe(
      "accepted, 4 frames sampled, said it saw 4 frames, by a signed URL only (no data URL was taken)",
    );
    expect(findingLine("video-file", { ...file, maxBodyBytes: 2048, byUrl: "no" })).toBe(
      "accepted, 4 frames sampled, bodies up to 2 KiB, said it saw 4 frames, not by a signed URL",
    );
  });

  it("warns on a mode the probe found refused, and still saves it", async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        sent.push(JSON.parse(String(init.body)));
        return new Response(JSON.stringify({ id: "e1" }), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      }),
    );
    renderForm();
    fireEvent.change(screen.getByLabelText("Input mode"), { target: { value: "video-file" } });
    expect(screen.getByTestId("endpoint-input-mode-warning").textContent).toContain("refuses video-file");
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ inputMode: "video-file" });
  });

  it("asks for a Test when the endpoint was never probed for modes", () => {
    renderForm({ ...endpoint, capabilities: { ...capabilities, inputModes: null }, inputMode: "video-frames" });
    expect((screen.getByLabelText("Input mode") as HTMLSelectElement).value).toBe("video-frames");
    expect(screen.getByTestId("endpoint-input-mode").textContent).toContain(
      "Test the endpoint to find which modes it takes.",
    );
  });
});
