// Issue 28 item 4 in Chromium: single sign-on through a real OpenID Connect provider (the `oidc-provider`
// package, run here) against a second app server configured for it on the e2e database. An account an admin
// created signs in by SSO (linked by its email); with SSO_CREATE_ACCOUNTS=1 and SSO_ALLOWED_DOMAINS a new
// person of the lab's domain gets an account, and one of another domain is refused with a message.
import { spawn, type ChildProcess } from "node:child_process";
import type { Server } from "node:http";
import net from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import Provider from "oidc-provider";
import { cli } from "./helpers";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

let idp: Server;
let app: ChildProcess;
let appUrl: string;
const stamp = Date.now();

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const [idpPort, appPort] = [await freePort(), await freePort()];
  appUrl = `http://localhost:${appPort}`;
  const issuer = `http://127.0.0.1:${idpPort}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: "framejury", client_secret: "framejury-secret", redirect_uris: [`${appUrl}/api/auth/callback/oidc`], grant_types: ["authorization_code"], response_types: ["code"] }],
    // The dev login form takes any login: it is the person's email here.
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ sub: id, email: id, email_verified: true, name: `SSO ${id.split("@")[0]}` }) };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
  });
  idp = provider.listen(idpPort);
  app = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(appPort)], {
    env: {
      ...process.env,
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      APP_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
      APP_URL: appUrl,
      STORAGE_DIR: process.env.E2E_STORAGE_DIR,
      PORT: String(appPort),
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_LEVEL: "warn",
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: "framejury",
      OIDC_CLIENT_SECRET: "framejury-secret",
      OIDC_NAME: "Lab Keycloak",
      SSO_CREATE_ACCOUNTS: "1",
      SSO_ALLOWED_DOMAINS: "lab.example.test",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${appUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (app.exitCode !== null || Date.now() > deadline) throw new Error("The SSO app server did not start.");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(async () => {
  app?.kill("SIGTERM");
  await new Promise((resolve) => idp?.close(resolve));
});

/** From the sign-in page through the provider's login and consent, back to the app. */
async function signInBySso(page: Page, email: string) {
  await page.goto(`${appUrl}/sign-in`);
  await page.getByRole("button", { name: "Sign in with Lab Keycloak" }).click();
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test("an account an admin made signs in by SSO; a new person of the lab's domain gets an account; another domain is refused", async ({ browser }) => {
  test.setTimeout(120_000);
  const existing = `existing-${stamp}@elsewhere.test`;
  await cli("create-user", "--email", existing, "--password", "existing-password-1");
  const projectId = await cli("create-project", "--name", `SSO project ${stamp}`, "--owner", existing);

  const first = await browser.newPage();
  await signInBySso(first, existing);
  await expect(first.getByRole("heading", { name: "Projects" })).toBeVisible();
  // The same account: its project is there.
  await expect(first.getByRole("link", { name: `SSO project ${stamp}` })).toBeVisible();
  await first.goto(`${appUrl}/projects/${projectId}`);
  await expect(first).toHaveURL(new RegExp(`/projects/${projectId}`));
  await first.close();

  const newcomer = await browser.newPage();
  await signInBySso(newcomer, `newcomer-${stamp}@lab.example.test`);
  await expect(newcomer.getByRole("heading", { name: "Projects" })).toBeVisible();
  await newcomer.close();
  // The new account exists: an owner can add it to a project by email.
  await cli("add-member", "--project", projectId, "--email", `newcomer-${stamp}@lab.example.test`, "--role", "reviewer");

  const outsider = await browser.newPage();
  await signInBySso(outsider, `outsider-${stamp}@gmail.example`);
  await expect(outsider).toHaveURL(/\/sign-in/);
  await expect(outsider.getByTestId("sso-error")).toContainText("not created here");
  await outsider.close();
  await expect(cli("add-member", "--project", projectId, "--email", `outsider-${stamp}@gmail.example`, "--role", "reviewer")).rejects.toThrow();
});
