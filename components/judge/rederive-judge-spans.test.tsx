// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RederiveJudgeSpans } from "./rederive-judge-spans";

afterEach(cleanup);

describe("the run page's judge spans action", () => {
  it("sends the project and run, and shows what was derived", async () => {
    const sent: Record<string, string>[] = [];
    render(
      <RederiveJudgeSpans
        projectId="p1"
        runId="r1"
        action={async (_previous, formData) => {
          sent.push(Object.fromEntries([...formData.entries()].map(([k, v]) => [k, String(v)])));
          return { ok: true, message: "4 judge span(s) from 1 video(s)." };
        }}
      />,
    );
    fireEvent.click(screen.getByRole("button", { name: "Derive judge spans again" }));
    await waitFor(() => expect(screen.getByText("4 judge span(s) from 1 video(s).")).toBeTruthy());
    expect(sent).toEqual([{ projectId: "p1", runId: "r1" }]);
  });
});
