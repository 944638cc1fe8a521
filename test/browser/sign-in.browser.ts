import { describe, expect, it } from "vitest";
import { ADMIN } from "./support/api.js";
import { consoleRun, eventually, PHONE } from "./support/console.js";

const run = consoleRun();

describe("signing in to the console", () => {
  it("serves the page under a strict Content-Security-Policy, and it works under it", async () => {
    const { page, screenshot } = await run.tab();
    const response = await page.goto("/consola/");
    expect(response?.status()).toBe(200);
    const csp = response!.headers()["content-security-policy"] ?? "";
    const directives = new Map(
      csp
        .split(";")
        .map((part) => part.trim().split(/\s+/) as [string, ...string[]])
        .map(([name, ...values]) => [name, values]),
    );
    expect(["'none'", "'self'"]).toContain(directives.get("default-src")?.join(" "));
    expect(directives.get("script-src")).toEqual(["'self'"]);
    expect(directives.get("style-src")).toEqual(["'self'"]);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    // The page drew itself (its script ran and its styles applied): no violation is left to the afterEach check.
    await page.getByRole("heading", { name: "Consola de administración" }).waitFor();
    expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(0);
    const button = await page.getByRole("button", { name: "Ingresar" }).evaluate((element) => getComputedStyle(element).backgroundColor);
    // Not the browser's own grey nor transparent: the console's stylesheet styles it.
    expect(["rgb(239, 239, 239)", "rgba(0, 0, 0, 0)"]).not.toContain(button);
    await screenshot("sign-in");
  });

  it("shows the API's Spanish message for a wrong password", async () => {
    const { page, open, screenshot } = await run.tab();
    await open();
    await page.getByLabel("Correo electrónico").fill(ADMIN.email);
    await page.getByLabel("Contraseña").fill("Equivocada#123");
    await page.getByRole("button", { name: "Ingresar" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    // What the API itself answers for these credentials.
    const answer = await run.api.graphql(
      `mutation ($email: String!, $password: String!) { login(email: $email, password: $password) { __typename ... on Error { message } } }`,
      { email: ADMIN.email, password: "Equivocada#123" },
    );
    expect(answer.login.__typename).toBe("InvalidCredentialsError");
    expect(await alert.textContent()).toBe(answer.login.message);
    expect(answer.login.message).toMatch(/contraseña/i);
    await screenshot("sign-in-wrong-password");
  });

  it("refuses a passenger with a clear message, closes the session and keeps no token", async () => {
    const passenger = await run.api.register("pasajero");
    const { page, context, open, screenshot } = await run.tab();
    await open();
    await page.getByLabel("Correo electrónico").fill(passenger.email);
    await page.getByLabel("Contraseña").fill("Clave#Segura1");
    const login = page.waitForResponse(isLogin);
    await page.getByRole("button", { name: "Ingresar" }).click();
    const token: string = (await (await login).json()).data.login.token;
    await eventually(() => page.getByRole("alert").textContent()).toBe(
      "Esta consola es para administradores y gestores de empresas. Tu cuenta no tiene ese permiso.",
    );
    expect(await page.getByRole("navigation", { name: "Secciones" }).count()).toBe(0);
    await screenshot("sign-in-passenger-refused");
    const storage = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
    expect(storage).not.toContain(token);
    expect(await context.cookies()).toEqual([]);
    // The console closed the passenger's session on the server: the token no longer signs anything.
    await eventually(async () => {
      const response = await fetch(`${run.base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: "{ driverProfile { __typename } }" }),
      });
      return response.status;
    }).toBe(401);
  });

  it("signs an administrator in, keeping the token out of localStorage and cookies", async () => {
    const { page, context, open, signIn } = await run.tab();
    await open();
    const login = page.waitForResponse(isLogin);
    await signIn();
    await page.getByRole("heading", { level: 1, name: "Inicio" }).waitFor();
    const token: string = (await (await login).json()).data.login.token;
    expect(token.length).toBeGreaterThan(20);
    const local = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(local).not.toContain(token);
    expect(JSON.stringify(await context.cookies())).not.toContain(token);
    expect(await context.cookies()).toEqual([]);
    // The operator's name is in the bar, and the sections are there.
    await page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Viajes" }).waitFor();
    await page.getByRole("button", { name: "Cerrar sesión" }).waitFor();
  });

  it("is used with the keyboard: Tab reaches the fields and the button, Enter submits", async () => {
    const { page, open } = await run.tab();
    await open();
    // From the top of the page, Tab walks through the form.
    const labelOfFocused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element) return "";
        if (element instanceof HTMLButtonElement) return `button:${element.textContent?.trim()}`;
        const label = element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`) : null;
        return `field:${label?.textContent?.trim() ?? ""}`;
      });
    await page.locator("body").click({ position: { x: 1, y: 1 } });
    const seen: string[] = [];
    for (let i = 0; i < 6 && !seen.includes("button:Ingresar"); i++) {
      await page.keyboard.press("Tab");
      seen.push(await labelOfFocused());
    }
    expect(seen).toEqual(expect.arrayContaining(["field:Correo electrónico", "field:Contraseña", "button:Ingresar"]));
    expect(seen.indexOf("field:Correo electrónico")).toBeLessThan(seen.indexOf("field:Contraseña"));
    expect(seen.indexOf("field:Contraseña")).toBeLessThan(seen.indexOf("button:Ingresar"));
    // Back to the fields by keyboard, typing, and Enter in the password field submits.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    expect(await labelOfFocused()).toBe("field:Correo electrónico");
    await page.keyboard.type(ADMIN.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Inicio" }).waitFor();
  });

  it("fits a phone: the menu button opens the sections and a page is usable", async () => {
    const tab = await run.tab(PHONE);
    const { page, open, signIn, screenshot } = tab;
    await open();
    await screenshot("phone-sign-in");
    await signIn();
    // No sideways scrolling on the home page at 390 px.
    await eventually(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.locator("canvas").first().waitFor();
    await screenshot("phone-home");
    const menu = page.getByRole("button", { name: "Menú" });
    await expect(menu.isVisible()).resolves.toBe(true);
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    const tripsLink = page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Viajes" });
    // Behind the menu, the sections are off the screen.
    await expect(tripsLink.isVisible().then(async (visible) => visible && (await inViewport(tripsLink)))).resolves.toBe(false);
    await menu.click();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await eventually(() => inViewport(tripsLink)).toBe(true);
    await screenshot("phone-menu");
    await tripsLink.click();
    await page.getByRole("heading", { level: 1, name: "Viajes" }).waitFor();
    // The drawer closed, and the page's own controls work: filter trips by state.
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    await page.getByLabel("Estado").selectOption("completado");
    await page.getByRole("table", { name: "Viajes" }).waitFor();
    await eventually(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot("phone-trips");
  });
});

/** The page's call of the login mutation. */
const isLogin = (response: import("playwright-core").Response) =>
  response.url().endsWith("/graphql") && (response.request().postData() ?? "").includes("login(");

/** Whether the element's box lies within the window (not slid off to a side). */
function inViewport(locator: import("playwright-core").Locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.right > 0 && box.left < window.innerWidth && box.bottom > 0 && box.top < window.innerHeight;
  });
}
