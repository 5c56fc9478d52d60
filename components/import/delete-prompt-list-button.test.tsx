// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeletePromptListButton } from "./delete-prompt-list-button";

const apiFetch = vi.hoisted(() => vi.fn());
const refresh = vi.hoisted(() => vi.fn());
vi.mock("@/lib/api-client", () => ({ apiFetch }));
vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh }) }));

afterEach(() => {
  cleanup();
  apiFetch.mockReset();
  refresh.mockReset();
});

const list = { id: "list-1", name: "Mechanics.txt", entryCount: 1234 };

describe("DeletePromptListButton", () => {
  it("asks before deleting, says what deleting does, and deletes only when confirmed", async () => {
    apiFetch.mockResolvedValue({ deleted: "list-1" });
    render(<DeletePromptListButton projectId="p1" promptList={list} />);
    fireEvent.click(screen.getByTestId("delete-prompt-list"));
    expect(screen.getByTestId("delete-prompt-list-confirm").textContent).toContain(
      "Delete Mechanics.txt (1,234 prompts)? Imports and this report stop reading it",
    );
    expect(apiFetch).not.toHaveBeenCalled();

    fireEvent.click(screen.getByText("Cancel"));
    expect(screen.queryByTestId("delete-prompt-list-confirm")).toBeNull();
    expect(apiFetch).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId("delete-prompt-list"));
    fireEvent.click(screen.getByTestId("delete-prompt-list-yes"));
    await waitFor(() => expect(refresh).toHaveBeenCalled());
    expect(apiFetch).toHaveBeenCalledWith("/api/v1/projects/p1/prompt-lists/list-1", { method: "DELETE" });
  });

  it("shows the server's refusal and stays open", async () => {
    apiFetch.mockRejectedValue(new Error("You may not do this in this project."));
    render(<DeletePromptListButton projectId="p1" promptList={list} />);
    fireEvent.click(screen.getByTestId("delete-prompt-list"));
    fireEvent.click(screen.getByTestId("delete-prompt-list-yes"));
    expect((await screen.findByRole("alert")).textContent).toBe("You may not do this in this project.");
    expect(screen.getByTestId("delete-prompt-list-confirm")).toBeTruthy();
    expect(refresh).not.toHaveBeenCalled();
  });
});
