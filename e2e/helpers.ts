import { expect, type Page } from "@playwright/test";
import { appContext } from "../lib/app-context/app-context";
import { runCli } from "../lib/cli/run-cli";

// The composition root: the application context (the task catalogue the core reads), for the specs that seed through lib/.
appContext();

/** Runs the admin CLI against the e2e database; returns what it printed on stdout. */
export async function cli(...argv: string[]): Promise<string> {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
  if (code !== 0) throw new Error(`cli ${argv[0]} failed (${code}): ${err.join("\n")}`);
  return out.join("\n");
}

/** A user who owns a fresh project; returns their credentials and the project id. */
export async function ownerWithProject(label: string) {
  const email = `${label}-${Date.now()}@example.test`;
  const password = "owner-password-1";
  await cli("create-user", "--email", email, "--password", password);
  const projectId = await cli("create-project", "--name", `${label} project`, "--owner", email);
  return { email, password, projectId };
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
}
