// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { WithheldError } from "@/lib/visibility/withheld";

afterEach(cleanup);

describe("the withheld notice", () => {
  it("says what is hidden, which blind queue holds it and how many items are left there, for each queue", () => {
    const error = new WithheldError("The VBench-2.0 leaderboard", {
      queues: [
        { id: "q1", name: "Mechanics blind", itemsLeft: 20 },
        { id: "q2", name: "Last one", itemsLeft: 1 },
      ],
      blindVideos: 21,
    });
    render(<WithheldNotice message={error.message} withheld={error.withheld} />);
    expect(screen.getByTestId("withheld")).toHaveProperty(
      "textContent",
      expect.stringContaining(
        'The VBench-2.0 leaderboard is hidden while you review "Mechanics blind" blind: 20 items left; "Last one" blind: 1 item left.',
      ),
    );
    expect(screen.getAllByTestId("withheld-queue").map((li) => li.textContent)).toEqual([
      "Mechanics blind: 20 items left",
      "Last one: 1 item left",
    ]);
    expect(error.status).toBe(409);
    expect(error.code).toBe("withheld");
    expect(error.details).toEqual({ withheld: error.withheld });
  });
});
