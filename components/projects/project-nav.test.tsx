// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ProjectNav } from "./project-nav";

/*
 * A project's bar shows the core's tabs and those of the tasks it uses; the other tasks' tabs are under one
 * "More tasks" menu, opened and closed from the keyboard. The page on screen is always in the bar.
 */
let pathname = "/projects/p1/videos";
vi.mock("next/navigation", () => ({ usePathname: () => pathname }));

afterEach(cleanup);

const link = (id: string, label: string) => ({ id, label, href: `/projects/p1/${id}` });
const items = [
  { id: "overview", label: "Overview", href: "/projects/p1" },
  link("videos", "Videos"),
  link("vbench2", "VBench-2.0"),
];
const moreTasks = [link("captions", "Captions"), link("qa", "QA"), link("construction", "Construction")];

describe("the project navigation bar", () => {
  it("lists the other tasks under More tasks, a keyboard disclosure that Escape closes", () => {
    render(<ProjectNav projectId="p1" items={items} moreTasks={moreTasks} />);
    const nav = screen.getByRole("navigation", { name: "Project" });
    const menu = screen.getByTestId("project-nav-more") as HTMLDetailsElement;
    expect(menu.open).toBe(false);
    expect(
      within(menu)
        .getAllByRole("link", { hidden: true })
        .map((a) => a.textContent),
    ).toEqual(["Captions", "QA", "Construction"]);
    // The bar's own tabs are outside the menu.
    const barTabs = within(nav)
      .getAllByRole("link", { hidden: true })
      .filter((a) => !menu.contains(a))
      .map((a) => a.textContent);
    expect(barTabs).toEqual(["Overview", "Videos", "VBench-2.0"]);
    // The summary is the menu's button: a native control, in the tab order, named "More tasks".
    const button = screen.getByTestId("project-nav-more-button");
    expect(button.tagName).toBe("SUMMARY");
    expect(button.textContent).toContain("More tasks");
    menu.open = true;
    within(menu).getByRole("link", { name: "QA" }).focus();
    fireEvent.keyDown(within(menu).getByRole("link", { name: "QA" }), { key: "Escape" });
    expect(menu.open).toBe(false);
    expect(document.activeElement).toBe(button);
  });

  it("puts the page on screen in the bar even when its task is one of the others", () => {
    pathname = "/projects/p1/qa";
    render(<ProjectNav projectId="p1" items={items} moreTasks={moreTasks} />);
    const qa = screen.getByTestId("project-nav-qa");
    expect(qa.getAttribute("aria-current")).toBe("page");
    expect(screen.getByTestId("project-nav-more").contains(qa)).toBe(false);
    expect(within(screen.getByTestId("project-nav-more")).queryByRole("link", { name: "QA", hidden: true })).toBeNull();
  });

  it("shows no menu when every task is in use", () => {
    pathname = "/projects/p1/videos";
    render(<ProjectNav projectId="p1" items={items} />);
    expect(screen.queryByTestId("project-nav-more")).toBeNull();
  });
});
