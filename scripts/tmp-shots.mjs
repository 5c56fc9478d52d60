// Walkthrough screenshots (not committed): pages touched by issue 37 as owner, reviewer and viewer.
import { chromium } from "@playwright/test";
const base = process.env.BASE;
const projectId = process.env.PROJECT;
const runId = process.env.RUN;
const videoId = process.env.VIDEO;
const users = JSON.parse(process.env.USERS);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const pages = [
  ["vbench2", `/projects/${projectId}/vbench2`],
  ["vbench2-run", `/projects/${projectId}/vbench2?runId=${runId}&labelSetId=${process.env.LABELSET}`],
  ["leaderboard", `/projects/${projectId}/vbench2/leaderboard?runId=${runId}&labelSetId=${process.env.LABELSET}`],
  ["run", `/projects/${projectId}/runs/${runId}`],
  ["run-leaderboard", `/projects/${projectId}/runs/${runId}/leaderboard`],
  ["video", `/projects/${projectId}/videos/${videoId}?runId=${runId}`],
  ["judge", `/projects/${projectId}/judge`],
  ["pending", `/projects/${projectId}/pending?uniform=64&videos=all`],
  ["import", `/projects/${projectId}/import`],
  ["queue-new", `/projects/${projectId}/queues/new?runId=${runId}`],
  ["videos", `/projects/${projectId}/videos?page=999`],
];
for (const [role, user] of Object.entries(users)) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(`${role}: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && errors.push(`${role} console: ${m.text()}`));
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/sign-in"));
  for (const [name, path] of pages) {
    const response = await page.goto(`${base}${path}`);
    await page.waitForLoadState("networkidle").catch(() => {});
    if (name === "vbench2-run") await page.locator("details summary").first().click().catch(() => {});
    await page.screenshot({ path: `/work/shots/${role}-${name}.png`, fullPage: true });
    console.log(role, name, response?.status());
  }
  console.log(errors.join("\n"));
  await context.close();
}
await browser.close();
