// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SpanLabelsCard } from "./span-labels-card";

/*
 * The project's span labels on the Settings page: rows edited in place, saved whole with one PUT; the server's refusal
 * is shown in its words. The API is answered here.
 */
let sent: { url: string; method: string; body: unknown }[];
let answer: () => Response;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  sent = [];
  answer = () => json({ labels: (sent.at(-1)!.body as { labels: unknown[] }).labels });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      sent.push({ url, method: init.method ?? "GET", body: JSON.parse(String(init.body)) });
      return answer();
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the span labels card", () => {
  it("adds, edits and removes rows, then saves the whole list with one PUT", async () => {
    render(<SpanLabelsCard projectId="p1" initial={[{ id: "flicker", label: "Flicker", definition: "jumps" }]} />);
    expect((screen.getByLabelText("Id of label 1") as HTMLInputElement).value).toBe("flicker");

    fireEvent.click(screen.getByRole("button", { name: "Add label" }));
    fireEvent.change(screen.getByLabelText("Id of label 2"), { target: { value: "limb" } });
    fireEvent.change(screen.getByLabelText("Name of label 2"), { target: { value: "Extra limb" } });
    fireEvent.change(screen.getByLabelText("Definition of label 2"), { target: { value: "A sixth finger" } });
    fireEvent.click(screen.getByRole("button", { name: "Add label" }));
    fireEvent.change(screen.getByLabelText("Id of label 3"), { target: { value: "gone" } });
    // Removing the first row leaves the others' text where it was.
    fireEvent.click(screen.getAllByRole("button", { name: "Remove" })[0]!);
    expect((screen.getByLabelText("Id of label 1") as HTMLInputElement).value).toBe("limb");
    fireEvent.click(screen.getAllByRole("button", { name: "Remove" })[1]!);

    fireEvent.click(screen.getByRole("button", { name: "Save labels" }));
    await screen.findByText("Saved.");
    expect(sent).toEqual([
      {
        url: "/api/v1/projects/p1/span-labels",
        method: "PUT",
        body: { labels: [{ id: "limb", label: "Extra limb", definition: "A sixth finger" }] },
      },
    ]);
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    answer = () =>
      json(
        {
          error: {
            code: "labels_in_use",
            message: 'These labels are on spans, so they stay in the list: "flicker" (2 spans).',
          },
        },
        409,
      );
    render(<SpanLabelsCard projectId="p1" initial={[{ id: "flicker", label: "Flicker", definition: "" }]} />);
    fireEvent.click(screen.getByRole("button", { name: "Remove" }));
    fireEvent.click(screen.getByRole("button", { name: "Save labels" }));
    expect((await screen.findByRole("alert")).textContent).toContain('"flicker" (2 spans)');
    expect(screen.getByText("No labels of the project's own yet.")).toBeTruthy();
    await waitFor(() => expect(screen.getByRole("button", { name: "Save labels" })).toHaveProperty("disabled", false));
  });
});
