import { describe, expect, it } from "vitest";
import { consoleRun, eventually } from "./support/console.js";

const run = consoleRun();

describe("reviewing a driver's application", () => {
  it("opens a document photo in the viewer and approves the driver", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const driver = await api.submittedDriver("Carla", "Gómez");
    expect(await api.reviewState(admin, driver.id)).toBe("en_revision");

    const { page, open, signIn, screenshot } = await run.tab();
    await open();
    await signIn();
    await page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Conductores" }).click();
    await page.getByRole("heading", { level: 1, name: "Revisión de conductores" }).waitFor();
    const row = page.getByRole("table", { name: "Conductores" }).getByRole("row").filter({ hasText: driver.email });
    await eventually(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("En revisión");
    await screenshot("drivers-review");

    await row.getByRole("link", { name: "Revisar a Carla Gómez" }).click();
    await page.getByRole("heading", { level: 1, name: "Carla Gómez" }).waitFor();
    await page.getByRole("heading", { name: "Documentos vigentes" }).waitFor();
    expect(await page.getByText(driver.plate, { exact: true }).count()).toBeGreaterThanOrEqual(1);
    // Every thumbnail of the six photos loads.
    const thumbnails = page.locator("main img[src*='/uploads/']");
    await eventually(() => thumbnails.count()).toBe(6);
    for (const thumbnail of await thumbnails.all()) {
      await thumbnail.scrollIntoViewIfNeeded();
      await eventually(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(320);
    }
    await screenshot("driver");

    await page.getByRole("button", { name: "SOAT", exact: true }).click();
    const viewer = page.getByRole("dialog", { name: "SOAT" });
    await viewer.waitFor();
    const photo = viewer.getByRole("img", { name: "Foto de SOAT" });
    await eventually(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(320);
    expect(await photo.evaluate((image: HTMLImageElement) => image.naturalHeight)).toBe(200);
    await screenshot("driver-document");
    // The viewer walks to the next photo, which loads too.
    await viewer.getByRole("button", { name: "Siguiente" }).click();
    const next = page.getByRole("dialog");
    await eventually(() => next.getByRole("heading").textContent()).not.toBe("SOAT");
    const nextPhoto = next.getByRole("img", { name: /^Foto de / });
    await eventually(() => nextPhoto.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(320);
    await next.getByRole("button", { name: "Cerrar" }).first().click();
    await eventually(() => page.getByRole("dialog").count()).toBe(0);

    await page.getByRole("button", { name: "Aprobar", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Aprobar conductor" });
    await confirm.waitFor();
    await confirm.getByRole("button", { name: "Aprobar", exact: true }).click();
    await eventually(() => page.getByRole("status").filter({ hasText: "quedó aprobado" }).count()).toBe(1);
    expect(await api.reviewState(admin, driver.id)).toBe("aprobado");
    // The page shows the new state, and approving again is not offered.
    await eventually(() => page.getByRole("button", { name: "Aprobar", exact: true }).isDisabled()).toBe(true);
    await screenshot("driver-approved");
  });
});
