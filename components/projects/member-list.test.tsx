// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { MemberList } from "./member-list";

/*
 * The members card on the project's Settings page: every member's email shown whole (it wraps, never cut off), with
 * the full address in its title; owners get the role and remove forms beside it.
 */
const long = "a.very.long.reviewer.address+projects-and-queues@department.example-university.test";
const members = [
  { userId: "u1", name: "Olive Owner", email: "olive@example.test", role: "owner" },
  { userId: "u2", name: "Rob Reviewer", email: long, role: "reviewer" },
];
const noop = async () => ({ ok: true as const, message: "" });

afterEach(() => cleanup());

/** Whether the element or any ancestor up to the list cuts its text off. */
function cutOff(element: HTMLElement): boolean {
  for (let e: HTMLElement | null = element; e && e.dataset.testid !== "member-list"; e = e.parentElement)
    if (/\b(truncate|text-ellipsis|overflow-hidden|line-clamp-\d)\b/.test(e.className)) return true;
  return false;
}

describe("the member list", () => {
  for (const owner of [true, false])
    it(`shows each email whole, wrapping, with the full address as its title (${owner ? "owner" : "reviewer"})`, () => {
      render(
        <MemberList projectId="p1" members={members} actions={owner ? { changeRole: noop, remove: noop } : null} />,
      );
      const emails = screen.getAllByTestId("member-email");
      expect(emails.map((e) => e.textContent)).toEqual(["olive@example.test", long]);
      for (const email of emails) {
        expect(email.getAttribute("title")).toBe(email.textContent);
        expect(cutOff(email)).toBe(false);
        expect(email.className).toMatch(/\bbreak-all\b/);
      }
      expect(screen.getByTestId("member-list").textContent).toContain("Rob Reviewer");
      expect(screen.queryAllByRole("button", { name: "Remove" })).toHaveLength(owner ? 2 : 0);
    });
});
