import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { type ServiceProcess, startService } from "../../support/process.js";
import { startSmtp, type TestSmtp } from "../../support/smtp.js";
import { ADMIN, Api } from "./api.js";

/** Where every page the tests visit is photographed (gitignored). */
const SCREENSHOTS = join(process.cwd(), "test-results", "screenshots");

/** Debian's Chromium; CHROMIUM_PATH names another. Never a browser downloaded by a test tool. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Date fields and number formats of the browser itself in Colombian Spanish, as operators see them.
  "--lang=es-CO",
];

/** Polls `read` until the assertion holds, for up to 15 s: what the page shows once the data arrives. */
export const eventually = <T>(read: () => T | Promise<T>, message?: string) =>
  expect.poll(read, { timeout: 15_000, interval: 100, message });

/**
 * Waits until the page says `text` as a confirmation (role=status). While it does not, what the
 * page shows as alerts is the value compared, so a refusal is named in the failure.
 */
export const said = (page: Page, text: string) =>
  eventually(async () =>
    (await page.getByRole("status").filter({ hasText: text }).count()) === 1
      ? text
      : `alertas: ${JSON.stringify(await page.getByRole("alert").allTextContents())}`,
  ).toBe(text);

/** A company manager's sections, in the sidebar's order. */
export const MANAGER_SECTIONS = [
  "Mi empresa",
  "Mapa en vivo",
  "Viajes",
  "Reservas",
  "Incidentes SOS",
  "Conductores",
  "Solicitudes",
  "Gestores",
  "Dinero y retiros",
];

/** The sidebar's links, in order. */
export const sectionNames = (page: Page) => page.getByRole("navigation", { name: "Secciones" }).getByRole("link").allTextContents();

/** Follows a link of the sidebar, opening the menu first on a phone. */
export async function goTo(page: Page, section: string) {
  const menu = page.getByRole("button", { name: "Menú" });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: section, exact: true }).click();
}

/** Whether the page fits the screen's width: nothing scrolls sideways but inside its own frame. */
export const fitsWidth = (page: Page, width: number) =>
  eventually(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** A page with everything that went wrong in it collected, to be asserted empty after each test. */
export interface Tab {
  page: Page;
  context: BrowserContext;
  /** Console errors, uncaught exceptions, failed requests, answers ≥ 400, CSP violations and requests to other origins. */
  problems: string[];
  /** Opens a route under /consola/ (a full load). */
  open(path?: string): Promise<void>;
  /** Writes test-results/screenshots/<name>.png: the whole page, or only `part` of it. */
  screenshot(name: string, part?: Locator): Promise<void>;
  /** Signs in (as the demo administrator by default) through the sign-in page and waits for the signed-in frame. */
  signIn(email?: string, password?: string): Promise<void>;
  /** Closes the context; what it still had in flight is then no problem of the page's. */
  close(): Promise<void>;
}

export interface ConsoleRun {
  service: ServiceProcess;
  base: string;
  api: Api;
  browser: Browser;
  /** The SMTP server the service's mail goes to, when the run was asked for one (`mail: true`). */
  mail: TestSmtp;
  /** A new browser context (no cookies, no storage) and page at `viewport`, watched for problems. */
  tab(viewport?: { width: number; height: number }): Promise<Tab>;
}

/** Same origin as the service, or data:/blob: (ws: to the same host counts as the same origin). */
function sameOrigin(url: string, base: URL): boolean {
  if (url.startsWith("data:") || url.startsWith("blob:")) return true;
  const parsed = new URL(url);
  return parsed.host === base.host && ["http:", "ws:"].includes(parsed.protocol);
}

/**
 * The built service (`node build/index.js`, as `npm start` runs it) on a fresh SQLite database with
 * the demo accounts, and Chromium, for one test file: started before its tests, stopped after them.
 * With `mail`, the service sends its mail to an SMTP server in the test process (`run.mail`); `env`
 * adds settings. After each test, every page it opened must have had no problem.
 */
export function consoleRun(options: { mail?: boolean; env?: Record<string, string> } = {}): ConsoleRun {
  const run = {} as ConsoleRun;
  const dir = mkdtempSync(join(tmpdir(), "consola-navegador-"));
  const tabs: Tab[] = [];
  mkdirSync(SCREENSHOTS, { recursive: true });

  beforeAll(async () => {
    if (options.mail) run.mail = await startSmtp();
    const [service, browser] = await Promise.all([
      startService({
        ...(run.mail ? { SMTP_URL: run.mail.url, MAIL_FROM: "no-responder@example.co" } : {}),
        DATABASE_URL: `file:${join(dir, "app.db")}`,
        UPLOAD_DIR: join(dir, "uploads"),
        DEMO_DATA: "true",
        LOG_LEVEL: "info",
        // Every sign-in of a run comes from 127.0.0.1.
        LOGIN_MAX_PER_ADDRESS: "1000",
        LOGIN_MAX_FAILURES: "100",
        // Offers go to every nearby driver at once, so the test's driver is offered each trip.
        DISPATCH_WAVE_SIZE: "50",
        ...options.env,
      }),
      // launch() gives each browser a new, empty profile directory of its own (and removes it on close).
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
    ]);
    run.service = service;
    run.browser = browser;
    run.base = `http://127.0.0.1:${service.port}`;
    run.api = new Api(run.base);
    run.tab = (viewport = DESKTOP) => openTab(run, viewport, tabs);
  });

  afterEach(async () => {
    const opened = tabs.splice(0);
    try {
      for (const tab of opened) expect(tab.problems, "problems in the page").toEqual([]);
    } finally {
      await Promise.all(opened.map((tab) => tab.close()));
    }
  });

  afterAll(async () => {
    await run.browser?.close();
    await run.service?.stop();
    await run.mail?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  return run;
}

async function openTab(run: ConsoleRun, viewport: { width: number; height: number }, tabs: Tab[]): Promise<Tab> {
  const base = new URL(run.base);
  const context = await run.browser.newContext({ viewport, locale: "es-CO", timezoneId: "America/Bogota", baseURL: run.base });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  // Closing a context aborts what its pages still had in flight: not the page's fault.
  let closing = false;
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => {
    if (!closing) problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`answered ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  page.on("request", (request) => {
    if (!sameOrigin(request.url(), base)) problems.push(`request to another origin: ${request.url()}`);
  });
  page.on("websocket", (socket) => {
    if (!sameOrigin(socket.url(), base)) problems.push(`WebSocket to another origin: ${socket.url()}`);
  });
  // Violations are also printed as console errors; this names the directive.
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });

  const tab: Tab = {
    page,
    context,
    problems,
    async open(path = "") {
      const response = await page.goto(`/consola/${path}`);
      expect(response?.status()).toBe(200);
    },
    async screenshot(name, part) {
      // Fonts load and the charts finish their animation before the picture: two reads of every canvas alike.
      await page.evaluate(() => document.fonts.ready);
      const canvases = () =>
        page.evaluate(async () => {
          // A frame or two apart, so that an animation in progress shows as a change.
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          return [...document.querySelectorAll("canvas")].map((canvas) => canvas.toDataURL()).join();
        });
      let last = await canvases();
      await eventually(async () => {
        const now = await canvases();
        const same = now === last;
        last = now;
        return same;
      }).toBe(true);
      const path = join(SCREENSHOTS, `${name}.png`);
      // With a dialog open, what the operator sees: a whole-page picture would cut the modal's backdrop at the window's height.
      const fullPage = (await page.locator("dialog[open]").count()) === 0;
      await (part ? part.screenshot({ path }) : page.screenshot({ path, fullPage }));
    },
    async signIn(email = ADMIN.email, password = ADMIN.password) {
      await page.getByLabel("Correo electrónico").fill(email);
      await page.getByLabel("Contraseña").fill(password);
      await page.getByRole("button", { name: "Ingresar" }).click();
      // The bar's way out: shown on every screen size, the sidebar only on wide ones.
      await page.getByRole("button", { name: "Cerrar sesión" }).waitFor();
    },
    async close() {
      closing = true;
      await context.close();
    },
  };
  tabs.push(tab);
  return tab;
}
