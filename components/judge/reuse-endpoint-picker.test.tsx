// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReusableEndpoint } from "@/lib/judge/endpoints/endpoint-reuse";
import { ReuseEndpointPicker } from "./reuse-endpoint-picker";

/*
 * The Judge page's "Use an endpoint from another of your projects": the offer grouped by project, one not already
 * here picked first, and the copy asked of the server by the endpoint's id alone.
 */
const refresh = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh }) }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  refresh.mockReset();
});

const offered: ReusableEndpoint[] = [
  {
    id: "e1",
    name: "Stub LLM (simulated)",
    baseUrl: "http://127.0.0.1:4010/v1",
    model: "stub-vision",
    hasApiKey: false,
    project: { id: "p1", name: "Demo" },
    alreadyHere: true,
  },
  {
    id: "e2",
    name: "GPT",
    baseUrl: "https://api.openai.com/v1",
    model: "gpt-4o",
    hasApiKey: true,
    project: { id: "p2", name: "Lab" },
    alreadyHere: false,
  },
  {
    id: "e3",
    name: "Guesser",
    baseUrl: "http://127.0.0.1:4010/v1",
    model: "stub-guess",
    hasApiKey: false,
    project: { id: "p1", name: "Demo" },
    alreadyHere: false,
  },
];

function show(endpoints: ReusableEndpoint[]) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <ReuseEndpointPicker projectId="target" endpoints={endpoints} />
    </QueryClientProvider>,
  );
}

describe("ReuseEndpointPicker", () => {
  it("shows nothing when no other project has an endpoint", () => {
    show([]);
    expect(screen.queryByTestId("reuse-endpoint")).toBeNull();
  });

  it("lists the endpoints by project, picks one not already here, and asks the server to copy it by id", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ id: "copy" }), { status: 201 }));
    vi.stubGlobal("fetch", fetchMock);
    show(offered);
    const select = screen.getByLabelText<HTMLSelectElement>("Use an endpoint from another of your projects");
    const groups = [...select.querySelectorAll("optgroup")].map((group) => [
      group.label,
      [...group.querySelectorAll("option")].map((option) => option.textContent),
    ]);
    expect(groups).toEqual([
      [
        "Demo",
        [
          "Stub LLM (simulated) · from Demo (already here) · stub-vision · http://127.0.0.1:4010/v1",
          "Guesser · from Demo · stub-guess · http://127.0.0.1:4010/v1",
        ],
      ],
      ["Lab", ["GPT · from Lab · gpt-4o · key stored · https://api.openai.com/v1"]],
    ]);
    expect(select.value).toBe("e2");

    fireEvent.change(select, { target: { value: "e3" } });
    fireEvent.click(within(screen.getByTestId("reuse-endpoint")).getByRole("button", { name: "Use this endpoint" }));
    await waitFor(() => expect(refresh).toHaveBeenCalled());
    expect(fetchMock).toHaveBeenCalledWith(
      "/api/v1/projects/target/endpoints/reusable",
      expect.objectContaining({ method: "POST", body: JSON.stringify({ fromEndpointId: "e3" }) }),
    );
  });

  it("names each option's project, so copies of one endpoint in two projects read apart in the closed select", () => {
    const copy = { ...offered[1]!, id: "e4", project: { id: "p3", name: "Thesis" } };
    show([offered[1]!, copy]);
    const select = screen.getByLabelText<HTMLSelectElement>("Use an endpoint from another of your projects");
    expect([...select.options].map((o) => o.textContent)).toEqual([
      "GPT · from Lab · gpt-4o · key stored · https://api.openai.com/v1",
      "GPT · from Thesis · gpt-4o · key stored · https://api.openai.com/v1",
    ]);
    // The project comes before the long base URL a closed select cuts; the picked endpoint is written out whole.
    expect(screen.getByTestId("reuse-endpoint-picked").textContent).toBe(
      "GPT · from Lab · gpt-4o · key stored · https://api.openai.com/v1",
    );
    fireEvent.change(select, { target: { value: "e4" } });
    expect(screen.getByTestId("reuse-endpoint-picked").textContent).toContain("from Thesis");
  });

  it("shows the server's refusal", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(
          JSON.stringify({
            error: { code: "forbidden", message: "Your role (reviewer) may not do that in this project." },
          }),
          { status: 403 },
        ),
    );
    show(offered);
    fireEvent.click(screen.getByRole("button", { name: "Use this endpoint" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Your role (reviewer) may not do that in this project.",
    );
    expect(refresh).not.toHaveBeenCalled();
  });
});
