// Issue 28 item 4 in Chromium: single sign-on through a real OpenID Connect provider (the `oidc-provider`
// package, run here) against a second app server configured for it on the e2e database. An account an admin
// created signs in by SSO (linked by its email); with SSO_CREATE_ACCOUNTS=1 and SSO_ALLOWED_DOMAINS a new
// person of the lab's domain gets an account (a member of the project whose owner set a default role for such
// accounts), and one of another domain is refused with a message. A second app server with
// SSO_NEW_ACCOUNTS=approve and PASSWORD_SIGN_IN=off shows no password form, refuses password sign-in on the
// server, and shows a new person "Waiting for an administrator" until an admin approves them with the CLI.
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
let strictApp: ChildProcess;
let strictUrl: string;
const stamp = Date.now();

/** `next start` on `port` against the e2e database with the SSO variables and `env`; resolves once healthy. */
async function startApp(port: number, issuer: string, env: Record<string, string>): Promise<ChildProcess> {
  const url = `http://localhost:${port}`;
  const child = spawn(
    process.execPath,
    [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port)],
    {
      env: {
        ...process.env,
        DATABASE_URL: process.env.E2E_DATABASE_URL,
        APP_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
        APP_URL: url,
        STORAGE_DIR: process.env.E2E_STORAGE_DIR,
        PORT: String(port),
        NEXT_TELEMETRY_DISABLED: "1",
        LOG_LEVEL: "warn",
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: "framejury",
        OIDC_CLIENT_SECRET: "framejury-secret",
        OIDC_NAME: "Lab Keycloak",
        SSO_ALLOWED_DOMAINS: "lab.example.test",
        ...env,
      },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("The SSO app server did not start.");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return child;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const [idpPort, appPort, strictPort] = [await freePort(), await freePort(), await freePort()];
  appUrl = `http://localhost:${appPort}`;
  strictUrl = `http://localhost:${strictPort}`;
  const issuer = `http://127.0.0.1:${idpPort}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "framejury",
        client_secret: "framejury-secret",
        redirect_uris: [`${appUrl}/api/auth/callback/oidc`, `${strictUrl}/api/auth/callback/oidc`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    // The dev login form takes any login: it is the person's email here.
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: id, email_verified: true, name: `SSO ${id.split("@")[0]}` }),
      };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
  });
  idp = provider.listen(idpPort);
  app = await startApp(appPort, issuer, { SSO_CREATE_ACCOUNTS: "1" });
  strictApp = await startApp(strictPort, issuer, { SSO_NEW_ACCOUNTS: "approve", PASSWORD_SIGN_IN: "off" });
});

test.afterAll(async () => {
  app?.kill("SIGTERM");
  strictApp?.kill("SIGTERM");
  await new Promise((resolve) => idp?.close(resolve));
});

/** From the sign-in page through the provider's login and consent, back to the app. */
async function signInBySso(page: Page, email: string, url = appUrl) {
  await page.goto(`${url}/sign-in`);
  await page.getByRole("button", { name: "Sign in with Lab Keycloak" }).click();
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test("an account an admin made signs in by SSO; a new person of the lab's domain gets an account; another domain is refused", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const existing = `existing-${stamp}@elsewhere.test`;
  await cli("create-user", "--email", existing, "--password", "existing-password-1");
  const projectId = await cli("create-project", "--name", `SSO project ${stamp}`, "--owner", existing);
  // The owner gives every account single sign-on creates the reviewer role in the project (the HTTP API, with a key).
  const key = await cli("create-api-key", "--email", existing);
  const setRole = await fetch(`${appUrl}/api/v1/projects/${projectId}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ ssoDefaultRole: "reviewer" }),
  });
  expect(setRole.status).toBe(200);

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
  // The new account is already a member of the project that set a default role.
  await expect(newcomer.getByRole("link", { name: `SSO project ${stamp}` })).toBeVisible();
  await newcomer.close();

  const outsider = await browser.newPage();
  await signInBySso(outsider, `outsider-${stamp}@gmail.example`);
  await expect(outsider).toHaveURL(/\/sign-in/);
  await expect(outsider.getByTestId("sso-error")).toContainText("not created here");
  await outsider.close();
  await expect(
    cli("add-member", "--project", projectId, "--email", `outsider-${stamp}@gmail.example`, "--role", "reviewer"),
  ).rejects.toThrow();
});

test("with SSO_NEW_ACCOUNTS=approve a new person waits for an admin; with PASSWORD_SIGN_IN=off only SSO signs in", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const withPassword = `password-${stamp}@elsewhere.test`;
  await cli("create-user", "--email", withPassword, "--password", "password-user-1");
  const signInByPassword = (url: string) =>
    fetch(`${url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url },
      body: JSON.stringify({ email: withPassword, password: "password-user-1" }),
    });
  // Refused by the server where password sign-in is off, accepted where it is on.
  expect((await signInByPassword(strictUrl)).status).toBe(403);
  expect((await signInByPassword(appUrl)).status).toBe(200);

  const waiting = `waiting-${stamp}@lab.example.test`;
  const first = await browser.newPage();
  await first.goto(`${strictUrl}/sign-in`);
  await expect(first.getByRole("button", { name: "Sign in with Lab Keycloak" })).toBeVisible();
  await expect(first.locator('input[name="password"]')).toHaveCount(0);
  await signInBySso(first, waiting, strictUrl);
  await expect(first.getByRole("heading", { name: "Waiting for an administrator" })).toBeVisible();
  await first.goto(`${strictUrl}/`);
  await expect(first).toHaveURL(/\/sign-in/);
  await first.close();

  await cli("approve-user", "--email", waiting);
  const second = await browser.newPage();
  await signInBySso(second, waiting, strictUrl);
  await expect(second.getByRole("heading", { name: "Projects" })).toBeVisible();
  await second.close();
});
