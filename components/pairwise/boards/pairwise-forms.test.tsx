// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NewPairSetForm } from "./new-pair-set-form";
import { JudgePairsForm } from "./judge-pairs-form";
import { PairImportForm } from "./pair-import-form";

/*
 * The owners' forms on the Pairs page: a new pair set posts the body the pair-sets route reads and opens the new set;
 * an import is checked first (a dry run whose counts and refusals show) and only then sent for real; the server's
 * refusal shows as it says it. The API is answered here.
 */
const push = vi.fn();
const refresh = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ push, refresh }) }));

let requests: { url: string; init: RequestInit }[];
let answer: (url: string, init: RequestInit) => Response;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  requests = [];
  push.mockReset();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      requests.push({ url, init });
      return answer(url, init);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const wrap = (node: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      {node}
    </QueryClientProvider>,
  );

describe("the new pair set form", () => {
  it("posts the name, prompts, design, sample, reviewers, blind and honeypots, then opens the set", async () => {
    answer = () => json({ id: "set1" }, 201);
    wrap(<NewPairSetForm projectId="p1" />);
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Round one" } });
    fireEvent.change(screen.getByLabelText(/^Prompts/), { target: { value: "A cat\n\n A dog \n" } });
    fireEvent.change(screen.getByLabelText("Design"), { target: { value: "k_per_prompt" } });
    fireEvent.change(screen.getByLabelText("K"), { target: { value: "2" } });
    fireEvent.change(screen.getByLabelText("Honeypot pairs"), { target: { value: "3" } });
    fireEvent.submit(screen.getByTestId("new-pair-set-form"));
    await waitFor(() => expect(push).toHaveBeenCalledWith("/projects/p1/pairs/set1"));
    expect(requests[0]!.url).toBe("/api/v1/projects/p1/pair-sets");
    expect(JSON.parse(String(requests[0]!.init.body))).toEqual({
      name: "Round one",
      prompts: ["A cat", "A dog"],
      design: "k_per_prompt",
      k: 2,
      sample: "same",
      reviewersPerPair: 1,
      blind: true,
      honeypots: 3,
    });
  });

  it("shows the server's refusal and stays", async () => {
    answer = () => json({ error: { code: "validation_error", message: "A pair set of that name exists." } }, 400);
    wrap(<NewPairSetForm projectId="p1" />);
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Taken" } });
    fireEvent.submit(screen.getByTestId("new-pair-set-form"));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "A pair set of that name exists.");
    expect(push).not.toHaveBeenCalled();
  });
});

describe("the import form", () => {
  it("checks the file first, shows the counts and refusals, and imports only when asked", async () => {
    answer = (_url, init) =>
      (init.body as FormData).get("dryRun") === "true"
        ? json({ rows: 3, imported: 2, refused: [{ row: 3, reason: 'unknown verdict "C"' }] })
        : json({ pairSetId: "set9", imported: 2 }, 201);
    wrap(<PairImportForm projectId="p1" />);
    const importButton = screen.getByRole("button", { name: "Import" }) as HTMLButtonElement;
    expect(importButton.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("File"), {
      target: { files: [new File(["video_a,video_b,verdict\n"], "votes.csv")] },
    });
    fireEvent.submit(screen.getByTestId("pair-import-form"));
    expect(await screen.findByTestId("pair-import-counts")).toHaveProperty(
      "textContent",
      expect.stringContaining("imported: 2"),
    );
    expect(screen.getByTestId("pair-import-refusals").textContent).toBe('row 3: unknown verdict "C"');
    expect(requests).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    await waitFor(() => expect(push).toHaveBeenCalledWith("/projects/p1/pairs/set9"));
    expect(requests.map((r) => (r.init.body as FormData).get("dryRun"))).toEqual(["true", "false"]);
    expect(requests[1]!.url).toBe("/api/v1/projects/p1/pair-imports");
  });
});

describe("the judge-pairs form", () => {
  const endpoints = [
    { id: "e1", name: "vLLM", model: "qwen" },
    { id: "e2", name: "OpenAI", model: "gpt" },
    { id: "e3", name: "local", model: "local" },
  ];

  it("starts a run on the chosen endpoint, or a panel of it and the judges ticked", async () => {
    answer = () => json({ id: "run1" }, 201);
    wrap(<JudgePairsForm pairSetId="s1" endpoints={endpoints} label="Judge both orders" />);
    fireEvent.submit(screen.getByTestId("judge-pairs-form"));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]!.url).toBe("/api/v1/pair-sets/s1/runs");
    expect(JSON.parse(String(requests[0]!.init.body))).toEqual({ endpointId: "e1" });
    fireEvent.click(screen.getByRole("checkbox", { name: "local" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "gpt @ OpenAI" }));
    fireEvent.submit(screen.getByTestId("judge-pairs-form"));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(JSON.parse(String(requests[1]!.init.body))).toEqual({ endpointId: "e1", panel: ["e1", "e2", "e3"] });
    // The endpoint chosen is not offered again under "Also ask".
    expect(screen.queryByRole("checkbox", { name: "qwen @ vLLM" })).toBeNull();
    fireEvent.change(screen.getByLabelText("Endpoint"), { target: { value: "e2" } });
    expect(screen.queryByRole("checkbox", { name: "gpt @ OpenAI" })).toBeNull();
    expect(screen.getByRole("checkbox", { name: "qwen @ vLLM" })).toBeTruthy();
  });

  it("shows the server's refusal as it says it", async () => {
    answer = () => json({ error: { code: "validation_error", message: "Endpoint local is archived." } }, 400);
    wrap(<JudgePairsForm pairSetId="s1" endpoints={endpoints} label="Judge both orders" />);
    fireEvent.click(screen.getByRole("checkbox", { name: "local" }));
    fireEvent.submit(screen.getByTestId("judge-pairs-form"));
    expect((await screen.findByRole("alert")).textContent).toContain("Endpoint local is archived.");
  });
});
