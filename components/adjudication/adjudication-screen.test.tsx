// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AdjudicationScreen } from "./adjudication-screen";

/*
 * The owner's adjudication screen in a DOM, with the gold API answered here: j / k move between disputed targets,
 * digits type the gold value (a chain of digits makes one number on a numeric scale), Enter saves it and moves on to
 * the next target without gold.
 */
vi.mock("next/link", () => ({
  default: ({ href, children }: { href: string; children: unknown }) => <a href={href}>{children as string}</a>,
}));

type Props = Parameters<typeof AdjudicationScreen>[0];
const item = (targetKey: string, scale: Props["initialItems"][number]["scale"]): Props["initialItems"][number] => ({
  targetKey,
  task: "hallucination",
  targetType: "score",
  target: targetKey,
  label: `Label ${targetKey}`,
  definition: `Definition of ${targetKey}`,
  scale,
  disagreement: "tie",
  video: { id: `v-${targetKey}`, path: `${targetKey}.mp4`, prompt: "A ball rolls" },
  itemId: "i1",
  stepId: "s",
  scopeIndex: 0,
  reviews: [
    { reviewerId: "r1", email: "ann@example.test", value: 1, display: "yes", note: null, acceptedJudge: false },
    { reviewerId: "r2", email: "bob@example.test", value: 0, display: "no", note: "blurry", acceptedJudge: true },
  ],
  judge: { runId: "run", value: 1, display: "yes" },
  frames: [],
  gold: null,
});
const yesNo = {
  kind: "categorical" as const,
  values: [
    { value: 0, label: "no" },
    { value: 1, label: "yes" },
  ],
};
const numeric = { kind: "numeric" as const, min: 0, max: 10, step: 1 };

let puts: unknown[];
beforeEach(() => {
  puts = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit = {}) => {
      const body = JSON.parse(String(init.body)) as { value: number; note: string };
      puts.push(body);
      const gold = {
        value: body.value,
        note: body.note,
        adjudicator: { id: "o", email: "owner@example.test" },
        version: 1,
        updatedAt: "2026-01-01T00:00:00Z",
      };
      return new Response(JSON.stringify(gold), { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const key = (k: string) =>
  act(() => void window.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true })));
const shown = () => screen.getByTestId("adjudication-item").dataset.targetKey;

describe("the adjudication screen", () => {
  it("shows every reviewer's value and the judge's; j / k move between the disputed targets", () => {
    render(<AdjudicationScreen projectId="p1" initialItems={[item("a", yesNo), item("b", numeric)]} />);
    expect(screen.getByTestId("adjudication-values").textContent).toBe(
      "ann@example.testyesbob@example.testno (accepted judge)blurryjudgeyes",
    );
    expect(screen.getByTestId("adjudication-prompt").textContent).toBe("PromptA ball rolls");
    key("j");
    expect(shown()).toBe("b");
    key("j");
    expect(shown()).toBe("b");
    key("k");
    expect(shown()).toBe("a");
  });

  it("digits type the value (two in a row make one number), Enter saves it and goes to the next target without gold", async () => {
    render(<AdjudicationScreen projectId="p1" initialItems={[item("a", numeric), item("b", yesNo)]} />);
    key("1");
    key("0");
    expect((screen.getByTestId("gold-value") as HTMLInputElement).value).toBe("10");
    fireEvent.change(screen.getByTestId("gold-note"), { target: { value: "clear" } });
    key("Enter");
    await waitFor(() => expect(shown()).toBe("b"));
    expect(puts).toEqual([{ targetKey: "a", value: 10, note: "clear" }]);
    expect(screen.getByTestId("adjudication-status").textContent).toBe("Gold saved: 10.");
    // A categorical target's value keys pick its value; a key that is not one of them does nothing.
    key("7");
    expect((screen.getByTestId("gold-value") as HTMLSelectElement).value).toBe("");
    key("1");
    expect((screen.getByTestId("gold-value") as HTMLSelectElement).value).toBe("1");
  });

  it("Enter without a value saves nothing and says so", () => {
    render(<AdjudicationScreen projectId="p1" initialItems={[item("a", numeric)]} />);
    key("Enter");
    expect(screen.getByTestId("adjudication-status").textContent).toBe("Type the gold value first.");
    expect(puts).toEqual([]);
  });
});
