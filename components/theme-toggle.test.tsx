// @vitest-environment happy-dom
import { act } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, expect, it } from "vitest";
import { ThemeToggle } from "./theme-toggle";

/*
 * The server's <select> works before React hydrates it. A theme chosen in that moment (a fast click, a slow
 * script) changed the select's value but fired no React handler, so the page kept its old theme: CI's
 * agreement test chose "dark" right after a reload and <html> never got the class.
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  document.body.innerHTML = "";
  document.documentElement.className = "";
  document.cookie = "framejury-theme=; max-age=0; path=/";
});

it("applies a theme chosen before hydration once React takes over, and says it is ready", async () => {
  const container = document.createElement("div");
  container.innerHTML = renderToString(<ThemeToggle initial="system" />);
  document.body.appendChild(container);
  const select = container.querySelector("select")!;
  expect(select.dataset.ready).toBe("false");

  select.value = "dark";
  await act(async () => {
    hydrateRoot(container, <ThemeToggle initial="system" />);
  });

  expect(document.documentElement.classList.contains("dark")).toBe(true);
  expect(document.cookie).toContain("framejury-theme=dark");
  expect(select.value).toBe("dark");
  expect(select.dataset.ready).toBe("true");
});

it("leaves the page's theme alone when nothing was chosen before hydration", async () => {
  const container = document.createElement("div");
  container.innerHTML = renderToString(<ThemeToggle initial="light" />);
  document.body.appendChild(container);
  document.documentElement.classList.add("light");
  await act(async () => {
    hydrateRoot(container, <ThemeToggle initial="light" />);
  });
  expect(document.documentElement.className).toBe("light");
  expect(document.cookie).not.toContain("framejury-theme");
});
