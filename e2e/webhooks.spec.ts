// Issue 28 item 5 in Chromium: an owner registers a webhook on the Settings page, copies its secret, sends a
// test, and sees it delivered in the log; the local receiver checks the signature with the Standard Webhooks
// library. The e2e worker delivers it, as `npm start`'s worker does.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { ownerWithProject, signIn } from "./helpers";

test("an owner registers a webhook, sends a test, and the receiver gets it signed; the log shows it delivered", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const received: { headers: Record<string, string>; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const owner = await ownerWithProject("webhooks");
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${owner.projectId}/settings`);
    const card = page.getByTestId("webhooks");
    await card.getByTestId("webhook-url").fill(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    await card.getByLabel("Queue finished").check();
    await card.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await card.getByTestId("webhook-secret").locator("code").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await expect(card.getByTestId("webhook-item")).toContainText("run.finished, queue.finished");

    await card.getByRole("button", { name: "Send test" }).click();
    await expect(card.getByTestId("webhook-delivery").first()).toHaveAttribute("data-status", "delivered", {
      timeout: 30_000,
    });
    await expect(card.getByTestId("webhook-delivery").first()).toContainText("204");
    expect(received).toHaveLength(1);
    const payload = new StandardWebhook(secret).verify(received[0]!.body, received[0]!.headers) as {
      event: string;
      project: { id: string };
    };
    expect(payload).toMatchObject({ event: "ping", project: { id: owner.projectId } });

    // After a reload the secret is gone for good: the page never reads it again.
    await page.reload();
    await expect(page.getByTestId("webhook-item")).toBeVisible();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
