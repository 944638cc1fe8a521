import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { activeCompany, field } from "../support/companies.js";
import { newAdmin, newDriver } from "../support/drivers.js";
import { uniqueEmail } from "../support/fixtures.js";

const clock = new FixedClock();
let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp({ clock, env: { DRIVER_INVITATIONS_PER_COMPANY: "3" } });
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const MINUTE = 60 * 1000;

const INVITE = `mutation ($email: String!) {
  inviteDriver(email: $email) {
    __typename
    ... on SolicitudAfiliacion { estado email es_invitacion conductor_id conductor_nombre motivo creado_en resuelta_en empresa { id nombre } }
    ... on RateLimitError { message retry_after_s }
    ... on Error { code message }
  }
}`;
const INVITATIONS = `{
  companyAffiliations(estado: invitada) {
    ... on PaginaSolicitudesAfiliacion { items { email conductor_id conductor_nombre es_invitacion estado } }
  }
}`;

const invite = (email: string, managerId: number) => field(app, INVITE, { email }, managerId);
const mailsTo = (address: string) => app.db.outboxMail.count({ where: { destinatario: address } });

describe("invitations a company sends", () => {
  it("are refused past the limit within the window, with the wait, and nothing is written or mailed for them", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    for (let sent = 0; sent < 3; sent++) {
      expect(await invite(uniqueEmail("invitado"), manager.id)).toMatchObject({ __typename: "SolicitudAfiliacion" });
    }
    clock.advance(10 * MINUTE);
    const address = uniqueEmail("de.mas");
    expect(await invite(address, manager.id)).toEqual({
      __typename: "RateLimitError",
      code: "RATE_LIMITED",
      message: "Tu empresa envió demasiadas invitaciones (como máximo 3 cada 60 minutos); intenta de nuevo en 3000 segundos",
      retry_after_s: 3000,
    });
    expect(await app.db.companyAffiliation.count({ where: { email: address } })).toBe(0);
    expect(await mailsTo(address)).toBe(0);
    expect(await app.db.companyAffiliation.count({ where: { empresa_id: company.id } })).toBe(3);
  });

  it("are counted again once the window has passed", async () => {
    const { manager } = await activeCompany(app, admin.id);
    for (let sent = 0; sent < 3; sent++) await invite(uniqueEmail("invitado"), manager.id);
    clock.advance(59 * MINUTE);
    expect(await invite(uniqueEmail("temprano"), manager.id)).toMatchObject({ __typename: "RateLimitError", retry_after_s: 60 });
    clock.advance(MINUTE);
    const address = uniqueEmail("a.tiempo");
    expect(await invite(address, manager.id)).toMatchObject({ __typename: "SolicitudAfiliacion", estado: "invitada", email: address });
    expect(await mailsTo(address)).toBe(1);
  });

  it("of one company do not hold back another", async () => {
    const first = await activeCompany(app, admin.id);
    const second = await activeCompany(app, admin.id);
    for (let sent = 0; sent < 3; sent++) await invite(uniqueEmail("invitado"), first.manager.id);
    expect(await invite(uniqueEmail("otro"), first.manager.id)).toMatchObject({ __typename: "RateLimitError" });
    expect(await invite(uniqueEmail("otro"), second.manager.id)).toMatchObject({ __typename: "SolicitudAfiliacion" });
  });

  it("sent at the same moment are counted one after the other", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => invite(uniqueEmail("a.la.vez"), manager.id)));
    const kinds = answers.map((answer: { __typename: string }) => answer.__typename);
    expect(kinds.filter((kind) => kind === "SolicitudAfiliacion")).toHaveLength(3);
    expect(kinds.filter((kind) => kind === "RateLimitError")).toHaveLength(3);
    expect(await app.db.companyAffiliation.count({ where: { empresa_id: company.id } })).toBe(3);
  });

  it("to an address whose invitation is open answer that invitation again, mail nobody, and count once", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    const address = uniqueEmail("repetido");
    const first = await invite(address, manager.id);
    clock.advance(MINUTE);
    for (let again = 0; again < 4; again++) expect(await invite(address, manager.id)).toEqual(first);
    expect(await mailsTo(address)).toBe(1);
    expect(await app.db.companyAffiliation.count({ where: { empresa_id: company.id } })).toBe(1);
    // The repeats were not counted: two more addresses still fit in the limit of three.
    expect(await invite(uniqueEmail("segundo"), manager.id)).toMatchObject({ __typename: "SolicitudAfiliacion" });
    expect(await invite(uniqueEmail("tercero"), manager.id)).toMatchObject({ __typename: "SolicitudAfiliacion" });
  });
});

describe("the answer to an invitation", () => {
  // What the company sees, without what it typed itself.
  const seen = ({ email: _, ...rest }: Record<string, unknown>) => rest;

  it("is the same whether or not the address has a driver account, within the limit and past it", async () => {
    const { manager } = await activeCompany(app, admin.id, "Taxis Sabaneta");
    const driver = await newDriver(app);
    const unknown = uniqueEmail("sin.cuenta");
    const driverMails = await mailsTo(driver.email);

    const known = await invite(driver.email, manager.id);
    const stranger = await invite(unknown, manager.id);
    expect(known).toMatchObject({ __typename: "SolicitudAfiliacion", estado: "invitada", conductor_id: null, conductor_nombre: null });
    expect(seen(known)).toEqual(seen(stranger));
    const listed = (await field(app, INVITATIONS, {}, manager.id)).items;
    expect(listed.map(seen)).toEqual([seen(listed[0]), seen(listed[0])]);
    // Both were told, each in their own way.
    expect(await mailsTo(driver.email)).toBe(driverMails + 1);
    expect(await mailsTo(unknown)).toBe(1);

    await invite(uniqueEmail("tercero"), manager.id);
    const another = await newDriver(app);
    const anotherMails = await mailsTo(another.email);
    expect(await invite(another.email, manager.id)).toEqual(await invite(uniqueEmail("sin.cuenta"), manager.id));
    expect(await mailsTo(another.email)).toBe(anotherMails);
  });
});
