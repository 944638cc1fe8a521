import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { registerUser } from "../support/fixtures.js";
import { shareAs, tokenOf } from "../support/shares.js";
import { startSmtp, type TestSmtp } from "../support/smtp.js";
import { createDriver, requestTrip } from "../support/trips.js";

let app: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  app = await createTestApp({
    env: { SMTP_URL: smtp.url, MAIL_FROM: "Viax <no-responder@viax.co>", MAIL_POLL_MS: "200", PUBLIC_URL: "https://viajes.example.co" },
  });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

describe("a share link mailed to the emergency contacts", () => {
  it("reaches each contact with an e-mail by SMTP: their name, the sharer's first name, the link and how long it lasts", async () => {
    const passenger = await registerUser(app, { name: "Ana María", lastName: "Zuluaga" });
    await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    const marta = `marta.${passenger.id}@example.com`;
    for (const contact of [
      { nombre: "Marta Restrepo", email: marta },
      { nombre: "Pedro", telefono: "3101234567" },
    ]) {
      expect((await app.legacy("POST", "/user/contactos_emergencia.php", { usuario_id: passenger.id, ...contact })).status).toBe(200);
    }
    const link = await shareAs(app, passenger.id, trip.id, true);
    expect(link.avisados).toEqual(["Marta Restrepo"]);

    const mail = await smtp.waitFor((received) => received.to.includes(marta));
    expect(mail.from).toBe("no-responder@viax.co");
    expect(mail.subject).toBe("Ana comparte su viaje contigo · Viax");
    expect(mail.text).toContain("Hola Marta Restrepo:");
    expect(mail.text).toContain(`https://viajes.example.co/seguimiento/${tokenOf(link.url)}`);
    expect(mail.text).toContain("deja de mostrar el viaje 30 minutos después de que termine");
    // Nothing the sharer would not show: no surname, no phone, no e-mail.
    for (const secret of ["Zuluaga", "María", passenger.email, "3001234567"]) expect(mail.text).not.toContain(secret);

    // The mail's link opens the page.
    const page = await app.server.fetch(new Request(`http://test${new URL(link.url).pathname}`));
    expect(page.status).toBe(200);
    await page.text();
    // The contact without an e-mail got nothing; nobody else got anything.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received.filter((received) => received.subject.includes("comparte su viaje")).map((received) => received.to)).toEqual([
      [marta],
    ]);
  });
});
