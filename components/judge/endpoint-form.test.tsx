// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EndpointForm, type EndpointRow } from "./endpoint-form";

/* Editing an endpoint with a stored key: the form says before saving that a base URL on another server drops it. */
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }) }));
afterEach(cleanup);

const endpoint: EndpointRow = {
  id: "e1",
  name: "GPT",
  baseUrl: "https://api.openai.com/v1",
  model: "gpt-4o",
  hasApiKey: true,
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
  archivedAt: null,
};

function renderForm() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <EndpointForm projectId="p1" endpoint={endpoint} />
    </QueryClientProvider>,
  );
  const baseUrl = screen.getByLabelText("Base URL");
  return { setBaseUrl: (value: string) => fireEvent.change(baseUrl, { target: { value } }) };
}

describe("EndpointForm: a stored key and a moved base URL", () => {
  it("says the key will be dropped when the base URL moves to another host, and not once the key is typed again", () => {
    const { setBaseUrl } = renderForm();
    expect(screen.queryByTestId("endpoint-key-dropped")).toBeNull();
    setBaseUrl("https://collector.example.com/v1");
    expect(screen.getByTestId("endpoint-key-dropped").textContent).toContain("drops the stored key");
    fireEvent.change(screen.getByLabelText("API key"), { target: { value: "sk-again" } });
    expect(screen.queryByTestId("endpoint-key-dropped")).toBeNull();
  });

  it("says nothing when only the path changes", () => {
    const { setBaseUrl } = renderForm();
    setBaseUrl("https://api.openai.com/v2");
    expect(screen.queryByTestId("endpoint-key-dropped")).toBeNull();
  });
});
