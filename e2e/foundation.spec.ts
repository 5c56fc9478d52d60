import { expect, test, type Page } from "@playwright/test";

const admin = { name: "Ada Admin", email: "ada@example.test", password: "admin-password-1" };
const reviewer = { email: "rex@example.test", password: "reviewer-password-1" };

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function createProject(page: Page, name: string): Promise<string> {
  await page.goto("/");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByTestId("project-name")).toHaveText(name);
  return new URL(page.url()).pathname.split("/").pop()!;
}

test.describe.configure({ mode: "serial" });

test("first run, projects, members, and what a reviewer may see", async ({ page, browser }) => {
  // First run: no users, so the sign-in page offers to create the admin.
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole("heading", { name: "Create the admin account" })).toBeVisible();
  await page.getByLabel("Name").fill(admin.name);
  await page.getByLabel("Email", { exact: true }).fill(admin.email);
  await page.getByLabel(/Password/).fill(admin.password);
  await page.getByRole("button", { name: "Create admin and sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await expect(page.getByText("No projects yet")).toBeVisible();
  await expect(page.getByTestId("current-user")).toContainText(admin.email);

  const alphaId = await createProject(page, "Alpha");
  await expect(page.getByText("No videos yet")).toBeVisible();
  const secretId = await createProject(page, "Secret");

  // The admin creates the reviewer's account, then adds them to Alpha only.
  await page.getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(reviewer.email);
  await page.getByLabel("Initial password").fill(reviewer.password);
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByTestId("user-list")).toContainText(reviewer.email);

  await page.goto(`/projects/${alphaId}/settings`);
  await page.getByLabel("Email of an existing account").fill(reviewer.email);
  await page.getByRole("combobox").last().selectOption("reviewer");
  await page.getByRole("button", { name: "Add member" }).click();
  await expect(page.getByTestId("member-list")).toContainText(reviewer.email);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  // Wrong password and unknown email read the same.
  await signIn(page, reviewer.email, "wrong-password");
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
  // The form keeps the email to try again with, and clears the password.
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(reviewer.email);
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
  await signIn(page, "nobody@example.test", "wrong-password");
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");

  // The reviewer signs in and sees Alpha, as a reviewer.
  await signIn(page, reviewer.email, reviewer.password);
  await expect(page.getByTestId("project-list")).toContainText("Alpha");
  await expect(page.getByTestId("project-list")).not.toContainText("Secret");
  await page.getByRole("link", { name: /Alpha/ }).click();
  await expect(page.getByText("your role: reviewer")).toBeVisible();
  await expect(page.getByRole("button", { name: "Add member" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);

  // Another project's page and API answer 404, like a project that does not exist.
  const pageResponse = await page.goto(`/projects/${secretId}`);
  expect(pageResponse?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  const apiResponse = await page.request.get(`/api/v1/projects/${secretId}`);
  expect(apiResponse.status()).toBe(404);
  expect(await apiResponse.json()).toEqual({ error: { code: "not_found", message: "No such project." } });
  expect((await page.request.get(`/api/v1/projects/${alphaId}`)).status()).toBe(200);
  const adminPage = await page.goto("/admin/users");
  expect(adminPage?.status()).toBe(404);

  // The reviewer makes an API key in the UI; it works as Bearer with the same rights.
  await page.goto("/settings/api-keys");
  await page.getByPlaceholder("e.g. upload script").fill("laptop");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").locator("code").textContent())!.trim();
  expect(key).toMatch(/^fj_/);
  await expect(page.getByRole("cell", { name: "laptop" })).toBeVisible();

  const anonymous = await browser.newContext();
  const api = anonymous.request;
  const listed = await api.get("/api/v1/projects", { headers: { authorization: `Bearer ${key}` } });
  expect(listed.status()).toBe(200);
  expect(((await listed.json()) as { projects: { name: string }[] }).projects.map((p) => p.name)).toEqual(["Alpha"]);
  expect(
    (await api.get(`/api/v1/projects/${secretId}`, { headers: { authorization: `Bearer ${key}` } })).status(),
  ).toBe(404);
  expect((await api.get("/api/v1/projects")).status()).toBe(401);

  // Revoked in the UI, the key stops working.
  await page.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("No API keys yet.")).toBeVisible();
  expect((await api.get("/api/v1/projects", { headers: { authorization: `Bearer ${key}` } })).status()).toBe(401);
  await anonymous.close();
});
