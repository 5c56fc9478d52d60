// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EndpointForm, type EndpointRow } from "./endpoint-form";
import { tokenRuleOf } from "./token-rule-fields";

/* The endpoint form's token rule: shown as stored, sent as three numbers, all blank sent as null (the default). */
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }) }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const endpoint: EndpointRow = {
  id: "e1",
  name: "Qwen",
  baseUrl: "http://vllm:8000/v1",
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
  capabilities: null,
  probedAt: null,
  requestLogprobs: false,
  topLogprobs: 5,
  inputMode: "images",
  tokenRule: { tokensPerImage: 400, tokensPerVideoFrame: 200, tokensPerVideoSecond: 0 },
  archivedAt: null,
};

function renderForm() {
  const sent: Record<string, unknown>[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return new Response("{}", { headers: { "content-type": "application/json" } });
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <EndpointForm projectId="p1" endpoint={endpoint} />
    </QueryClientProvider>,
  );
  return sent;
}

describe("the endpoint form's token rule", () => {
  it("shows the stored rule and sends what is typed", async () => {
    const sent = renderForm();
    const image = screen.getByTestId("endpoint-token-rule-tokensPerImage") as HTMLInputElement;
    expect(image.value).toBe("400");
    fireEvent.change(image, { target: { value: "420" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.tokenRule).toEqual({ tokensPerImage: 420, tokensPerVideoFrame: 200, tokensPerVideoSecond: 0 });
  });

  it("sends null when every field is blank: the provider's default", async () => {
    const sent = renderForm();
    for (const key of ["tokensPerImage", "tokensPerVideoFrame", "tokensPerVideoSecond"])
      fireEvent.change(screen.getByTestId(`endpoint-token-rule-${key}`), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.tokenRule).toBeNull();
  });

  it("sends a blank among filled fields as no number, for the server to refuse", () => {
    const rule = tokenRuleOf({ tokensPerImage: "1", tokensPerVideoFrame: "", tokensPerVideoSecond: "2" });
    expect(JSON.parse(JSON.stringify(rule))).toEqual({
      tokensPerImage: 1,
      tokensPerVideoFrame: null,
      tokensPerVideoSecond: 2,
    });
  });
});
