import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// The HTTP API reference (issue 24 item 6): the OpenAPI document at /api/v1/openapi.json, public, and the
// /docs/api page that renders it, linked from the navigation, readable in both themes.

test("the API reference page lists every operation of the public OpenAPI document", async ({ page, request }) => {
  // A hundred operations checked for contrast in two themes: close to the default minute on a busy machine.
  test.setTimeout(180_000);
  // No cookie and no key: the document is public.
  const response = await request.get("/api/v1/openapi.json");
  expect(response.status()).toBe(200);
  const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  expect(document.openapi).toBe("3.1.0");
  const operations = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
  expect(operations).toBeGreaterThan(90);

  const owner = await ownerWithProject("api-docs");
  await signIn(page, owner.email, owner.password);
  await page.getByRole("link", { name: "API docs" }).click();
  // The client router changes the URL only once the page's server render has arrived: a hundred operations, which
  // a machine busy with another spec file took over the default 10 s to render.
  await expect(page).toHaveURL(/\/docs\/api$/, { timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "HTTP API reference" })).toBeVisible();
  await expect(page.getByTestId("api-operation")).toHaveCount(operations);
  const createRun = page
    .getByTestId("api-operation")
    .filter({ hasText: "/api/v1/projects/{projectId}/runs" })
    .filter({ hasText: "Start a run" });
  await expect(createRun).toContainText("POST");
  await createRun.getByText("Request body").click();
  await expect(createRun.locator("pre")).toContainText('"pipeline"');
  await expect(page.getByTestId("openapi-json-link")).toHaveAttribute("href", "/api/v1/openapi.json");
  // The descriptions' `backticked` parts read as inline code, never with literal backticks.
  await expect(createRun.getByTestId("api-inline-code").first()).toBeVisible();
  // (The request body's JSON Schema, in its <pre>, is shown as the document has it.)
  const withBackticks = await page.getByTestId("api-operation").evaluateAll((cards) =>
    cards.flatMap((card) => {
      const shown = card.cloneNode(true) as HTMLElement;
      for (const pre of shown.querySelectorAll("pre")) pre.remove();
      return (shown.textContent ?? "").includes("`") ? [card.id] : [];
    }),
  );
  expect(withBackticks).toEqual([]);

  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-ready", "true");
  for (const theme of ["light", "dark"] as const) {
    await page.getByTestId("theme-toggle").selectOption(theme);
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
    const result = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
    expect(
      result.violations.flatMap((v) =>
        v.nodes.map((n) => `${theme} ${n.target.join(" ")}: ${n.any[0]?.message ?? v.help}`),
      ),
    ).toEqual([]);
  }
});
