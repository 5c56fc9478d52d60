import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// Accounts after creation (issue 22, item 4) and judge endpoints after Add (item 5), in the browser.

test("a user changes their own password and signs in with it", async ({ page }) => {
  const email = `own-password-${Date.now()}@example.test`;
  await cli("create-user", "--email", email, "--password", "first-password-1");
  await signIn(page, email, "first-password-1");

  await page.getByRole("link", { name: "Password", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Password", exact: true })).toBeVisible();
  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel(/^New password \(at least/).fill("second-password-2");
  await page.getByLabel("New password again").fill("second-password-2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("The current password is wrong.");

  await page.getByLabel("Current password").fill("first-password-1");
  await page.getByLabel(/^New password \(at least/).fill("second-password-2");
  await page.getByLabel("New password again").fill("second-password-2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed.")).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("first-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
  await signIn(page, email, "second-password-2");
});

test("an admin resets a password (shown once) and deactivates an account, which is signed out at once", async ({
  page,
  browser,
}) => {
  const stamp = Date.now();
  const admin = { email: `lifecycle-admin-${stamp}@example.test`, password: "admin-password-1" };
  const member = { email: `lifecycle-member-${stamp}@example.test`, password: "member-password-1" };
  await cli("create-user", "--email", admin.email, "--password", admin.password, "--admin");
  await cli("create-user", "--email", member.email, "--password", member.password);

  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, member.email, member.password);

  await signIn(page, admin.email, admin.password);
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto("/admin/users");
  const actions = page.getByTestId(`user-actions-${member.email}`);
  await actions.getByRole("button", { name: "Reset password" }).click();
  const newPassword = (await actions.getByTestId("new-password").textContent())!.trim();
  expect(newPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);

  // The member's session ended with the reset; the new password works, the old one no longer does.
  await memberPage.goto("/");
  await expect(memberPage).toHaveURL(/\/sign-in$/);
  await signIn(memberPage, member.email, newPassword);

  await actions.getByRole("button", { name: "Deactivate" }).click();
  await expect(
    page
      .getByTestId("user-list")
      .getByRole("row", { name: new RegExp(member.email) })
      .getByTestId("deactivated-badge"),
  ).toBeVisible();
  await memberPage.goto("/");
  await expect(memberPage).toHaveURL(/\/sign-in$/);
  await memberPage.getByLabel("Email", { exact: true }).fill(member.email);
  await memberPage.getByLabel("Password", { exact: true }).fill(newPassword);
  await memberPage.getByRole("button", { name: "Sign in" }).click();
  await expect(memberPage.getByTestId("form-error")).toHaveText("Wrong email or password.");

  // Reactivated, the account signs in again.
  await page.getByTestId(`user-actions-${member.email}`).getByRole("button", { name: "Reactivate" }).click();
  await expect(
    page
      .getByTestId("user-list")
      .getByRole("row", { name: new RegExp(member.email) })
      .getByTestId("deactivated-badge"),
  ).toHaveCount(0);
  await signIn(memberPage, member.email, newPassword);
  await memberContext.close();
});

test("an owner adds an endpoint (the form empties), tests it, edits it keeping its key, archives and deletes it", async ({
  page,
}) => {
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const stub = await startStubLlm();
  try {
    const owner = await ownerWithProject("endpoints");
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${owner.projectId}/judge`);
    const form = page.getByTestId("endpoint-form");
    await form.getByLabel("Name").fill("Stub vision");
    await form.getByLabel("Base URL").fill(stub.baseURL);
    await form.getByLabel("Model").fill("stub-vision");
    await form.getByLabel("API key").fill("sk-e2e-endpoint-key");
    await form.getByLabel("Requests / minute").fill("30");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    const item = page.getByTestId("endpoint-item").filter({ hasText: "Stub vision" });
    await expect(item).toContainText("stored (encrypted)");
    // After Add the form is empty again, ready for the next endpoint.
    await expect(form.getByLabel("Name")).toHaveValue("");
    await expect(form.getByLabel("Base URL")).toHaveValue("https://api.openai.com/v1");
    await expect(form.getByLabel("Model")).toHaveValue("gpt-4o");
    await expect(form.getByLabel("API key")).toHaveValue("");
    await expect(form.getByLabel("Requests / minute")).toHaveValue("");

    await item.getByRole("button", { name: "Test" }).click();
    const result = item.getByTestId("endpoint-test-result");
    await expect(result.getByTestId("test-answered")).toHaveText("yes");
    await expect(result.getByTestId("test-latency")).toHaveText(/^[\d,]+ ms$/);
    await expect(result.getByTestId("test-image")).toContainText("yes: it named the colour");
    // The probe's findings show once the page is read again: a line more above the buttons, which moved a click that
    // landed as it came (CI).
    await expect(item.getByTestId("endpoint-capabilities")).toContainText("Probed");

    await item.getByRole("button", { name: "Edit" }).click();
    const edit = item.getByTestId("endpoint-edit-form");
    await expect(edit.getByLabel("Name")).toHaveValue("Stub vision");
    await edit.getByLabel("Name").fill("Stub text-only");
    await edit.getByLabel("Model").fill("stub-text-only");
    await edit.getByRole("button", { name: "Save changes" }).click();
    const renamed = page.getByTestId("endpoint-item").filter({ hasText: "Stub text-only" });
    await expect(renamed).toContainText("stub-text-only");
    await expect(renamed).toContainText("stored (encrypted)");
    await renamed.getByRole("button", { name: "Test" }).click();
    await expect(renamed.getByTestId("test-answered")).toHaveText("no");
    await expect(renamed.getByTestId("test-image")).toContainText("no: the model did not take the image");
    await expect(renamed.getByTestId("test-error")).toContainText("The model does not take images (400).");
    await expect(renamed.getByTestId("endpoint-capabilities")).toContainText("no images");
    expect(await page.content()).not.toContain("sk-e2e-endpoint-key");

    await renamed.getByRole("button", { name: "Archive" }).click();
    await expect(renamed).toContainText("archived");
    await expect(page.getByTestId("run-endpoint").locator("option", { hasText: "Stub text-only" })).toHaveCount(0);
    page.on("dialog", (dialog) => void dialog.accept());
    await renamed.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByTestId("endpoint-item").filter({ hasText: "Stub text-only" })).toHaveCount(0);
  } finally {
    await stub.close();
  }
});
