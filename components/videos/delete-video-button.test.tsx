// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeleteVideoButton } from "./delete-video-button";
import { DeletedNotice } from "./deleted-notice";

/*
 * Deleting a video from its page: nothing goes before the counted confirmation is pressed, and the list the
 * page goes back to says the video was deleted (a count in the address, never a name a link could set).
 */
const push = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ push, refresh: vi.fn() }) }));

const counts = {
  videos: 1,
  frameSets: 1,
  frames: 8,
  storageObjects: 9,
  humanJudgments: 0,
  goldJudgments: 0,
  runs: 0,
  runVideos: 0,
  steps: 0,
  llmCalls: 0,
  runItems: 0,
  runsDeleted: 0,
  queueItems: 0,
  queuesDeleted: 0,
  items: 0,
  edits: 0,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  push.mockReset();
});

describe("deleting a video from its page", () => {
  it("asks first, then goes back to the list with a deleted notice", async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init?.body)));
        return new Response(JSON.stringify({ counts }), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <DeleteVideoButton projectId="p1" videoId="v1" afterHref="/projects/p1/videos?sort=path" />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByTestId("delete-video"));
    expect(screen.getByRole("dialog", { name: "Delete 1 video?" })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("delete-counts").textContent).toContain("8 frames"));
    // Only the dry run so far.
    expect(bodies).toEqual([{ videoIds: ["v1"], dryRun: true }]);
    expect(push).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("confirm-delete-videos"));
    await waitFor(() => expect(push).toHaveBeenCalledWith("/projects/p1/videos?sort=path&deleted=1"));
    expect(bodies[1]).toEqual({ videoIds: ["v1"] });
  });

  it("the list says what was deleted, and ignores anything but a count", () => {
    render(<DeletedNotice deleted="1" />);
    expect(screen.getByRole("status").textContent).toBe("Deleted 1 video with its frames, judgments and results.");
    cleanup();
    for (const bad of [undefined, "0", "<b>x</b>", "1e3", "-1"]) {
      const { container } = render(<DeletedNotice deleted={bad} />);
      expect(container.textContent).toBe("");
      cleanup();
    }
  });
});
