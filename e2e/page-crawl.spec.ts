import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { roleCan } from "../lib/authz/permissions";
import { seedCrawlProject, type CrawlAccount } from "./crawl-seed";
import { crawlPages, pageUrls, routeOfPageFile, type CrawlPage, type CrawlRole, type CrawlSeed } from "./pages";

// Every page as every role: each page of e2e/pages.ts, opened by the owner, a reviewer, a viewer, a
// non-member, the site admin and a signed-out visitor, must answer what the role should get (the page,
// the 404, the 403 page, or the sign-in page) with no 5xx on any request, no uncaught page error,
// no console error, no Content-Security-Policy violation, and no serious or critical axe-core finding
// (WCAG 2.x A/AA, colour contrast among them) in the light theme or the dark one.

function pageFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return pageFiles(full);
    return /^page\.[jt]sx?$/.test(entry.name) ? [path.relative(path.resolve("."), full)] : [];
  });
}

test("every app/**/page.tsx is listed in e2e/pages.ts, and nothing else is", () => {
  const routes = pageFiles(path.resolve("app")).map(routeOfPageFile).sort();
  expect(routes.length).toBeGreaterThan(10);
  expect(
    crawlPages()
      .map((p) => p.route)
      .sort(),
  ).toEqual(routes);
});

type Expected = { status: 200 } | { status: 403 } | { status: 404 } | { redirectTo: string };

function expectedFor(page: CrawlPage, role: CrawlRole): Expected {
  if (page.public) return { status: 200 };
  if (page.signedOutOnly) return role === "signedOut" ? { status: 200 } : { redirectTo: "/" };
  if (role === "signedOut") return { redirectTo: "/sign-in" };
  if (page.adminOnly) return role === "admin" ? { status: 200 } : { status: 404 };
  if (!page.project) return { status: 200 };
  if (role === "outsider") return { status: 404 };
  const projectRole = role === "admin" ? "owner" : role;
  return roleCan(projectRole, page.project.action ?? "project.view") ? { status: 200 } : { status: 403 };
}

/** The listed page a path opens (its route's [params] match one segment each), or undefined. */
function pageOf(pathname: string): CrawlPage | undefined {
  return crawlPages().find((p) => new RegExp(`^${p.route.replace(/\[[^\]]+\]/g, "[^/]+")}/?$`).test(pathname));
}

/**
 * axe-core's serious and critical findings on the page as it stands: every WCAG 2.x A/AA rule in the light theme,
 * then colour contrast in the dark one (the app follows the system's colour scheme when no theme is chosen, so
 * switching the emulated scheme repaints the page without a reload; a theme changes colours only, so the other
 * rules would find the same again). One line per finding: theme, rule, the element and why.
 */
async function accessibilityFindings(page: Page): Promise<string[]> {
  const findings: string[] = [];
  // Violations only: axe skips building the (large) lists of passes and inapplicable rules. (options() replaces
  // the run options, so it comes before withTags/withRules, which add to them.)
  const axe = () => new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  const passes = [
    { colorScheme: "light", builder: () => axe().withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]) },
    { colorScheme: "dark", builder: () => axe().withRules(["color-contrast"]) },
  ] as const;
  for (const { colorScheme, builder } of passes) {
    await page.emulateMedia({ colorScheme });
    const result = await builder().analyze();
    for (const violation of result.violations) {
      if (violation.impact !== "serious" && violation.impact !== "critical") continue;
      for (const node of violation.nodes)
        findings.push(
          `axe ${colorScheme} ${violation.id}: ${node.target.join(" ")}: ${node.any[0]?.message ?? node.failureSummary ?? violation.help}`,
        );
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  return findings;
}

let seed: CrawlSeed;
let accounts: Record<Exclude<CrawlRole, "signedOut">, CrawlAccount>;

test.describe("page crawl", () => {
  // The roles' crawls only read, so they run side by side when there are workers to spare (each worker seeds its
  // own project and accounts in beforeAll).
  test.describe.configure({ mode: "parallel" });
  test.beforeAll(async ({ baseURL }) => {
    test.setTimeout(180_000);
    ({ seed, accounts } = await seedCrawlProject(baseURL!));
  });

  async function contextFor(browser: Browser, role: CrawlRole, baseURL: string): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL });
    if (role !== "signedOut") {
      const signedIn = await context.request.post("/api/auth/sign-in/email", {
        data: accounts[role],
        headers: { origin: baseURL },
      });
      expect(signedIn.ok(), `${role} signs in`).toBe(true);
    }
    // CSP violations in the page, reported even when the browser would not log them.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (event) =>
        seen.push(
          `${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
        ),
      );
    });
    return context;
  }

  /** Opens one URL and returns what went wrong, if anything. */
  async function visit(
    page: Page,
    url: string,
    expected: Expected,
    role?: CrawlRole,
    axeChecked?: Set<string>,
  ): Promise<string[]> {
    const problems: string[] = [];
    const expectedStatus = "status" in expected ? expected.status : 200;
    const onConsole = (message: import("@playwright/test").ConsoleMessage) => {
      if (message.type() !== "error") return;
      // The browser logs the document's own expected 403/404 as a failed resource load.
      const documentStatus =
        expectedStatus !== 200 &&
        message.text().includes(`status of ${expectedStatus}`) &&
        new URL(message.location().url || "http://x/").pathname === new URL(url, "http://x").pathname;
      if (!documentStatus) problems.push(`console error: ${message.text()} (${message.location().url})`);
    };
    const onPageError = (error: Error) => problems.push(`uncaught page error: ${error.message}`);
    const onResponse = (response: import("@playwright/test").Response) => {
      if (response.status() >= 500)
        problems.push(`${response.status()} from ${response.request().method()} ${response.url()}`);
    };
    page.on("console", onConsole);
    page.on("pageerror", onPageError);
    page.on("response", onResponse);
    try {
      const response = await page.goto(url, { waitUntil: "load" });
      await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
      const finalPath = new URL(page.url()).pathname;
      if ("redirectTo" in expected) {
        if (finalPath !== expected.redirectTo)
          problems.push(`expected a redirect to ${expected.redirectTo}, ended on ${page.url()}`);
      } else {
        if (response?.status() !== expected.status)
          problems.push(`expected status ${expected.status}, got ${response?.status()}`);
        if (expected.status === 404 && !(await page.getByRole("heading", { name: "Not found" }).isVisible()))
          problems.push("expected the app's Not found page");
        if (expected.status === 403 && !(await page.getByRole("heading", { name: "Not allowed" }).isVisible()))
          problems.push("expected the app's Not allowed page");
      }
      // A page the role may open links only to pages it may open too: no link leads a member into a 403.
      if (role !== undefined && "status" in expected && expected.status === 200) {
        const hrefs = await page
          .$$eval("a[href]", (anchors) => anchors.map((a) => (a as HTMLAnchorElement).href))
          .catch(() => [] as string[]);
        for (const href of new Set(hrefs)) {
          // An anchor's href property is absolute, or "" without an href worth following.
          const target = URL.canParse(href) ? new URL(href) : null;
          if (!target || target.origin !== new URL(url, page.url()).origin) continue;
          const linked = pageOf(target.pathname);
          if (
            linked &&
            "status" in expectedFor(linked, role) &&
            (expectedFor(linked, role) as { status: number }).status === 403
          )
            problems.push(`links to ${target.pathname}${target.search}, which it may not open (403)`);
        }
      }
      const violations = await page
        .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
        .catch(() => []);
      for (const violation of violations) problems.push(`CSP violation: ${violation}`);
      // Once per role for each page (route) it may open, at its first URL, and once for each page it lands on
      // instead (Not found, Not allowed, the sign-in page): a route's other URLs, and those pages at any URL,
      // render the same components again, and axe costs a visit some seconds.
      const landedOn =
        "status" in expected && expected.status === 200
          ? (pageOf(new URL(url, "http://x").pathname)?.route ?? url)
          : "status" in expected
            ? `the ${expected.status} page`
            : `redirected to ${expected.redirectTo}`;
      if (axeChecked && !axeChecked.has(landedOn)) {
        axeChecked.add(landedOn);
        problems.push(...(await accessibilityFindings(page)));
      }
    } finally {
      page.off("console", onConsole);
      page.off("pageerror", onPageError);
      page.off("response", onResponse);
    }
    return problems;
  }

  /**
   * Whether every URL of a page renders the same for the role as its first: the Not found or Not allowed page, or a
   * redirect, whatever the query; and the site admin's project pages, which are the owner's (the owner's crawl opens
   * each of their URLs in the browser). The page's other URLs are then requested without the browser: the answer
   * (and so any 5xx) is still checked at every URL, at a fraction of a page load and hydration each.
   */
  function rendersLikeItsFirstUrl(crawlPage: CrawlPage, role: CrawlRole, expected: Expected): boolean {
    return !("status" in expected) || expected.status !== 200 || (role === "admin" && crawlPage.project !== undefined);
  }

  /** Requests one URL with the role's cookies (following redirects, as the browser does) and returns what went wrong. */
  async function request(context: BrowserContext, url: string, expected: Expected): Promise<string[]> {
    const response = await context.request.get(url);
    const finalPath = new URL(response.url()).pathname;
    if ("redirectTo" in expected)
      return finalPath === expected.redirectTo
        ? []
        : [`expected a redirect to ${expected.redirectTo}, ended on ${response.url()} (${response.status()})`];
    return response.status() === expected.status
      ? []
      : [`expected status ${expected.status}, got ${response.status()}`];
  }

  const roles: CrawlRole[] = ["owner", "reviewer", "viewer", "outsider", "admin", "signedOut"];
  for (const role of roles) {
    test(`every page as ${role}`, async ({ browser, baseURL }) => {
      // The owner's crawl opens every task's pages and runs axe on each: some 5–7 minutes on a busy 2-core machine.
      test.setTimeout(900_000);
      const context = await contextFor(browser, role, baseURL!);
      const page = await context.newPage();
      const failures: string[] = [];
      const axeChecked = new Set<string>();
      let visited = 0;
      try {
        for (const crawlPage of crawlPages()) {
          const expected = expectedFor(crawlPage, role);
          // Pages outside projects render the same for every signed-in account, so axe checks them in the site
          // admin's crawl only (the admin's own pages among them; /docs/api alone takes axe 35–60 s). Inside a
          // project the admin sees its owner's pages, which the owner's crawl checks. Every role still checks the
          // pages it lands on instead (Not found, Not allowed, sign-in).
          const axeHere = role === "signedOut" || (role === "admin") === !crawlPage.project ? axeChecked : undefined;
          const requestAfterFirst = rendersLikeItsFirstUrl(crawlPage, role, expected);
          for (const [index, url] of pageUrls(crawlPage, seed, role).entries()) {
            visited += 1;
            const problems =
              index > 0 && requestAfterFirst
                ? await request(context, url, expected)
                : await visit(page, url, expected, role, axeHere);
            for (const problem of problems) failures.push(`${role} ${url}: ${problem}`);
          }
        }
      } finally {
        await context.close();
      }
      expect(visited).toBeGreaterThanOrEqual(crawlPages().length);
      expect(axeChecked.size, "axe ran on the pages").toBeGreaterThan(0);
      expect(failures).toEqual([]);
    });
  }
});
