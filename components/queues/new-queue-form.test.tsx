// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NewQueueForm } from "./new-queue-form";

/*
 * The new-queue form: a VBench-2.0 run (no verdict per video, yes/no questions) is reviewed by its questions, so the
 * form starts there and offers no verdict; a task with a verdict keeps it as the default. The hand-out order is the
 * owner's choice, overlap first by default. The API is answered here.
 */
const push = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ push }) }));

let created: Record<string, unknown>[];
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

beforeEach(() => {
  created = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      if ((init.method ?? "GET") === "POST") {
        created.push(JSON.parse(String(init.body)));
        return json({ id: "q1" });
      }
      return json({ runId: "r1", count: 3, targets: null });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function openForm(pipeline: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <NewQueueForm projectId="p1" filter={{}} sort="path" dir="asc" runs={[{ id: "r1", label: "Run 1", pipeline }]} />
    </QueryClientProvider>,
  );
}

async function createAs(name: string) {
  fireEvent.change(screen.getByPlaceholderText(/Mechanics/), { target: { value: name } });
  await screen.findByText("3 videos match");
  fireEvent.submit(screen.getByRole("button", { name: "Create queue" }).closest("form")!);
  await waitFor(() => expect(created).toHaveLength(1));
  return created[0]!;
}

describe("the new-queue form", () => {
  it("reviews a VBench-2.0 run by its questions, in yes / no words, and offers no verdict", async () => {
    openForm("vbench2");
    expect(screen.queryByTestId("queue-scope-verdict")).toBeNull();
    const scores = screen.getByTestId("queue-scope-scores") as HTMLInputElement;
    expect(scores.checked).toBe(true);
    expect(scores.parentElement!.textContent).toContain("the judge's answers (yes / no) to each of its questions");
    expect(scores.parentElement!.textContent).not.toContain("scores (0–1)");
    expect(screen.getByTestId("queue-no-verdict").textContent).toContain("no verdict per video");
    expect(await createAs("Rivers")).toMatchObject({ scope: "scores", handOut: "overlap" });
  });

  it("keeps the verdict as the default for a task that has one", async () => {
    openForm("hallucination");
    expect((screen.getByTestId("queue-scope-verdict") as HTMLInputElement).checked).toBe(true);
    expect(await createAs("Verdicts")).toMatchObject({ scope: "verdict" });
  });

  it("asks whether reviewers also mark where, off by default, and sends the choice", async () => {
    openForm("hallucination");
    const localize = screen.getByTestId("queue-localize") as HTMLInputElement;
    expect(localize.checked).toBe(false);
    expect(localize.parentElement!.textContent).toContain("(optional)");
    fireEvent.click(screen.getByTestId("queue-scope-scores"));
    fireEvent.click(screen.getByRole("radio", { name: /presence/ }));
    expect(localize.parentElement!.textContent).toContain("each category marked present needs a span of it");
    fireEvent.click(localize);
    expect(await createAs("Where")).toMatchObject({ scope: "scores", mode: "presence", localize: true });
  });

  it("sends the hand-out order the owner chooses", async () => {
    openForm("hallucination");
    fireEvent.click(screen.getByRole("radio", { name: /coverage first/ }));
    expect(await createAs("Coverage")).toMatchObject({ handOut: "coverage" });
  });
});
