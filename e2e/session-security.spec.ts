import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

/**
 * A page on another port of the same host (same site, so the browser attaches the app's SameSite=Lax
 * session cookie) that, once loaded, submits three forms at the app: a text/plain form whose body is
 * JSON creating a project, the same trick adding an owner, and a multipart form uploading a prompt list.
 */
function attackPage(appOrigin: string, projectId: string, intruderEmail: string): string {
  const jsonField = (object: Record<string, string>) => {
    const json = JSON.stringify({ ...object, ignore: "" });
    // name = everything up to the last `"`, value = `"}`: the form sends `name=value`, which is the JSON.
    return { name: json.slice(0, -2), value: '"}' };
  };
  const project = jsonField({ name: "Forged by another origin" });
  const member = jsonField({ email: intruderEmail, role: "owner" });
  const attr = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!doctype html><html><body>
<iframe name="f1"></iframe><iframe name="f2"></iframe><iframe name="f3"></iframe>
<form id="plain" method="POST" enctype="text/plain" target="f1" action="${appOrigin}/api/v1/projects">
  <input name="${attr(project.name)}" value="${attr(project.value)}"></form>
<form id="member" method="POST" enctype="text/plain" target="f2" action="${appOrigin}/api/v1/projects/${projectId}/members">
  <input name="${attr(member.name)}" value="${attr(member.value)}"></form>
<form id="multipart" method="POST" enctype="multipart/form-data" target="f3" action="${appOrigin}/api/v1/projects/${projectId}/prompt-lists">
  <input type="file" name="file"></form>
<script>
  const files = new DataTransfer();
  files.items.add(new File(["a forged prompt\\n"], "prompts.txt", { type: "text/plain" }));
  document.querySelector("#multipart input").files = files.files;
  for (const id of ["plain", "member", "multipart"]) document.getElementById(id).submit();
</script></body></html>`;
}

test("a page on another port cannot change data with the signed-in user's cookie", async ({ page, baseURL }) => {
  const victim = await ownerWithProject("csrf-victim");
  const intruder = `csrf-intruder-${Date.now()}@example.test`;
  await cli("create-user", "--email", intruder, "--password", "intruder-password-1");
  await signIn(page, victim.email, victim.password);

  const appOrigin = new URL(baseURL!).origin;
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(attackPage(appOrigin, victim.projectId, intruder));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    // localhost, like the app: another origin (the port differs) on the same site.
    const attackerUrl = `http://localhost:${(server.address() as AddressInfo).port}/`;
    const answers = [
      "/api/v1/projects",
      `/api/v1/projects/${victim.projectId}/members`,
      `/api/v1/projects/${victim.projectId}/prompt-lists`,
    ].map((path) =>
      page.waitForResponse(
        (response) => new URL(response.url()).pathname === path && response.request().method() === "POST",
      ),
    );
    await page.goto(attackerUrl);
    for (const answer of await Promise.all(answers)) {
      // The forms did reach the app with the session cookie: refused (403), not signed out (401); the victim
      // owns the project, so no permission check would refuse them. The frames cannot show the JSON body:
      // API answers carry frame-ancestors 'none', so Chromium replaces it with its own error page.
      expect(answer.status(), answer.url()).toBe(403);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }

  const projects = (await (await page.request.get("/api/v1/projects")).json()) as { projects: { name: string }[] };
  expect(projects.projects.map((p) => p.name)).toEqual(["csrf-victim project"]);
  const members = (await (await page.request.get(`/api/v1/projects/${victim.projectId}/members`)).json()) as {
    members: { email: string }[];
  };
  expect(members.members.map((m) => m.email)).toEqual([victim.email]);
  const lists = (await (await page.request.get(`/api/v1/projects/${victim.projectId}/prompt-lists`)).json()) as {
    promptLists: unknown[];
  };
  expect(lists.promptLists).toEqual([]);

  // The app's own pages still change data with the same cookie.
  await page.goto("/");
  await page.getByLabel("Name").fill("Made in the app");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByTestId("project-name")).toHaveText("Made in the app");
});

test("the sign-in form locks an account after 5 failures, with the wrong-password message", async ({ page }) => {
  const email = `throttled-${Date.now()}@example.test`;
  const password = "throttled-password-1";
  await cli("create-user", "--email", email, "--password", password);
  const attempt = async (typed: string) => {
    await page.goto("/sign-in");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(typed);
    await page.getByRole("button", { name: "Sign in" }).click();
  };
  for (let i = 0; i < 5; i++) {
    await attempt(`wrong-${i}`);
    await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
  }
  await attempt(password);
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("a server action posted from another origin is refused with the API's 403, not a 500", async ({
  request,
  baseURL,
}) => {
  const action = (origin: string) =>
    request.post("/sign-in", {
      headers: { "next-action": "7f".padEnd(42, "0"), origin, "content-type": "text/plain;charset=UTF-8" },
      data: "[]",
    });
  for (const origin of ["http://attacker.example", `http://localhost:${Number(new URL(baseURL!).port) + 1}`, "null"]) {
    const refused = await action(origin);
    expect(refused.status(), origin).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("cross_origin");
  }
  // The app's own origin gets past the guard to Next.js, which answers an unknown action itself (no 403, no 500).
  const own = await action(new URL(baseURL!).origin);
  expect(own.status()).toBeLessThan(500);
  expect(own.status()).not.toBe(403);
});

test("many sign-ins in 10 s from one address all get the wrong-password answer, never better-auth's 429", async ({
  request,
  baseURL,
}) => {
  const email = `burst-${Date.now()}@example.test`;
  const password = "burst-password-1";
  await cli("create-user", "--email", email, "--password", password);
  // An address of its own, so that the per-address count (20 in 15 minutes) is this test's alone.
  const address = `198.51.100.${1 + (Date.now() % 250)}`;
  const signIn = (typed: string) =>
    request.post("/api/auth/sign-in/email", {
      headers: { origin: new URL(baseURL!).origin, "x-forwarded-for": address },
      data: { email, password: typed },
    });
  // The control: sign-up keeps better-auth's limit (3 in a window that lasts while requests come less than 10 s
  // apart), so a 4th sign-up sent after the 4th sign-in is refused with 429 only if the sign-ins between the 3rd and
  // the 4th sign-up came fast enough for better-auth's limiter to have refused a 4th sign-in too.
  const signUp = () =>
    request.post("/api/auth/sign-up/email", {
      headers: { origin: new URL(baseURL!).origin, "x-forwarded-for": address },
      data: { email: `control-${email}`, password, name: "Control" },
    });
  const controls: number[] = [];
  for (let i = 0; i < 3; i++) controls.push((await signUp()).status());
  const answers: { status: number; code: unknown }[] = [];
  for (let i = 0; i < 7; i++) {
    const response = await signIn(`wrong-${i}`);
    answers.push({ status: response.status(), code: ((await response.json()) as { code?: unknown }).code });
    if (i === 3) controls.push((await signUp()).status());
  }
  // Locked after 5 failures: the right password gets the same answer.
  const locked = await signIn(password);
  answers.push({ status: locked.status(), code: ((await locked.json()) as { code?: unknown }).code });
  expect(controls.at(-1), `the attempts fall within better-auth's 10 s window (sign-up answers: ${controls})`).toBe(
    429,
  );
  expect(answers).toEqual(Array.from({ length: 8 }, () => ({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" })));
});
