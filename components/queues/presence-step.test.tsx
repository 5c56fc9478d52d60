// @vitest-environment happy-dom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { usePresenceStep, type PresenceView } from "./presence-step";

/*
 * The presence step of a presence-first queue item on its own: which categories the reviewer says are present, the
 * judge's (when shown), the summary the grading step shows, and the keys the step takes.
 */
afterEach(cleanup);

const presence = (judge: boolean): PresenceView => ({
  absentValue: 0,
  threshold: 0.5,
  categories: [
    {
      id: "fire",
      key: "1",
      label: "Fire",
      definition: "Flames",
      targetKeys: ["fire"],
      mine: null,
      ...(judge ? { judge: 0 } : {}),
    },
    {
      id: "smoke",
      key: "2",
      label: "Smoke",
      definition: "Smoke",
      targetKeys: ["smoke"],
      mine: null,
      ...(judge ? { judge: 1 } : {}),
    },
  ],
});

let step: ReturnType<typeof usePresenceStep>;
/** Renders the step and hands the hook's value to the test (`seen`), as the review screen reads it at each render. */
function Harness({ view, seen }: { view: PresenceView; seen: (value: ReturnType<typeof usePresenceStep>) => void }) {
  const value = usePresenceStep(view, ["fire", "smoke"]);
  seen(value);
  return (
    <>
      {value.element}
      {value.summary}
    </>
  );
}

describe("the presence step", () => {
  it("a category's key marks it present; the judge's presence shows when not blind and asks its targets too", () => {
    render(<Harness view={presence(true)} seen={(value) => (step = value)} />);
    expect(screen.getAllByTestId("presence-judge").map((el) => el.textContent)).toEqual([
      "judge: absent",
      "judge: present",
    ]);
    expect(step.isAsked("smoke")).toBe(true);
    expect(step.isAsked("fire")).toBe(false);
    act(() => void step.handleKey("1"));
    const fire = screen.getAllByTestId("presence-category")[0]!;
    expect(fire.dataset.present).toBe("true");
    expect(fire.dataset.focused).toBe("true");
    expect(step.isAsked("fire")).toBe(true);
    expect(step.changed).toBe(true);
    expect(step.judgments()).toEqual([
      { category: "fire", value: 1, expectedVersion: undefined },
      { category: "smoke", value: 0, expectedVersion: undefined },
    ]);
    expect(screen.getByTestId("presence-summary").textContent).toBe(
      "Present: fire · the judge also says: smoke · change (p)",
    );
  });

  it("blind: the judge is hidden; Enter with nothing to grade is left to the screen, and p comes back", () => {
    render(<Harness view={presence(false)} seen={(value) => (step = value)} />);
    expect(screen.getAllByTestId("presence-judge-hidden")).toHaveLength(2);
    expect(screen.getByTestId("presence-summary").textContent).toBe("Present: none · change (p)");
    expect(step.active).toBe(true);
    expect(step.handleKey("Enter")).toBe(false);
    act(() => void step.handleKey("2"));
    act(() => void step.handleKey("Enter"));
    expect(step.active).toBe(false);
    expect(step.handleKey("j")).toBe(false);
    act(() => void step.handleKey("p"));
    expect(step.active).toBe(true);
  });
});
