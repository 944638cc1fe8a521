import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ADMIN } from "./support/api.js";
import { consoleRun, eventually } from "./support/console.js";

const run = consoleRun({ mail: true });

/** The single-use code of the newest "Crea tu contraseña" mail to an address. */
async function mailedCode(address: string): Promise<string> {
  const mail = await run.mail.waitFor((sent) => sent.to.includes(address) && sent.subject.startsWith("Crea tu contraseña"));
  expect(mail.text).toContain("Pediste elegir una contraseña nueva.");
  return /\b([0-9A-Z]{4}(?:-[0-9A-Z]{4}){3})\b/.exec(mail.text)![1]!;
}

/** From the sign-in page: «¿Olvidaste tu contraseña?», the address, and the form to choose a new one. */
async function askForCode(page: Page, email: string) {
  await page.getByRole("button", { name: "¿Olvidaste tu contraseña?" }).click();
  await page.getByRole("heading", { level: 1, name: "¿Olvidaste tu contraseña?" }).waitFor();
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByRole("button", { name: "Enviarme un código" }).click();
  await page.getByRole("heading", { level: 1, name: "Crear mi contraseña" }).waitFor();
  expect(await page.getByRole("status").textContent()).toContain("Si hay una cuenta con ese correo, te enviamos un código.");
}

async function choose(page: Page, code: string, password: string) {
  await page.getByLabel("Código").fill(code);
  await page.getByLabel("Contraseña nueva").fill(password);
  await page.getByLabel("Repite la contraseña").fill(password);
  await page.getByRole("button", { name: "Crear contraseña e ingresar" }).click();
}

describe("a forgotten password", () => {
  it("is replaced from the sign-in page with a mailed code: a guessable one is refused saying why, a good one signs the operator in", async () => {
    const { page, open, screenshot } = await run.tab();
    await open();
    await askForCode(page, ADMIN.email);
    const code = await mailedCode(ADMIN.email);
    await choose(page, code, "Password123");
    await eventually(() => page.getByRole("alert").textContent()).toMatch(
      /es fácil de adivinar.*no hacen falta mayúsculas, números ni símbolos/,
    );
    await screenshot("password-refused");
    await choose(page, code, "lámpara volcán otoño");
    await page.getByRole("button", { name: "Cerrar sesión" }).waitFor();
    // The old password no longer signs in; the new one does.
    await expect(run.api.login(ADMIN.email, ADMIN.password)).rejects.toThrow();
    expect(await run.api.login(ADMIN.email, "lámpara volcán otoño")).toEqual(expect.any(String));
  });

  it("tells a passenger, whom this console does not sign in, to use the new password in the app", async () => {
    const passenger = await run.api.register("pasajero", "Inés", "Arango");
    const { page, open, screenshot } = await run.tab();
    await open();
    await askForCode(page, passenger.email);
    await choose(page, await mailedCode(passenger.email), "cometa bambú lluvia");
    await page.getByRole("heading", { level: 1, name: "Consola de administración" }).waitFor();
    expect(await page.getByRole("status").textContent()).toBe("Tu contraseña nueva quedó guardada: entra con ella en la aplicación.");
    await screenshot("password-chosen-for-the-app");
    expect(await run.api.login(passenger.email, "cometa bambú lluvia")).toEqual(expect.any(String));
  });
});
