// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { PageLinks } from "./page-links";

afterEach(cleanup);

const href = (page: number) => `/list?page=${page}`;

describe("a paged list's links", () => {
  it("link the previous and next pages around where the list is", () => {
    const { container } = render(<PageLinks page={2} pageCount={3} href={href} />);
    expect(screen.getByRole("link", { name: "previous" }).getAttribute("href")).toBe("/list?page=1");
    expect(screen.getByRole("link", { name: "next" }).getAttribute("href")).toBe("/list?page=3");
    expect(container.textContent).toBe("previouspage 2 of 3next");
  });

  it("leave out the link past either end, and show nothing for one page", () => {
    const { container, rerender } = render(<PageLinks page={1} pageCount={2} href={href} />);
    expect(screen.queryByRole("link", { name: "previous" })).toBeNull();
    expect(screen.getByRole("link", { name: "next" }).getAttribute("href")).toBe("/list?page=2");
    rerender(<PageLinks page={2} pageCount={2} href={href} />);
    expect(screen.queryByRole("link", { name: "next" })).toBeNull();
    expect(screen.getByRole("link", { name: "previous" }).getAttribute("href")).toBe("/list?page=1");
    rerender(<PageLinks page={1} pageCount={1} href={href} />);
    expect(container.innerHTML).toBe("");
  });
});
