import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SHARES_PER_TRIP } from "../../src/domain/safety/sharing.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { post, registerUser } from "../support/fixtures.js";
import { REVOKE_SHARE, shareAs, sharedLink, tokenOf } from "../support/shares.js";
import { FixedClock } from "../support/clock.js";
import { createDriver, tripIn } from "../support/trips.js";

let app: TestApp;
const clock = new FixedClock();
beforeAll(async () => {
  app = await createTestApp({ clock, env: { PUBLIC_URL: "https://viajes.example.co/", MAIL_POLL_MS: "600000" } });
});
afterAll(() => app.close());

const CONTACTS = "/user/contactos_emergencia.php";
const LINKS = `query ($trip: Int!) {
  tripShares(trip_id: $trip) {
    __typename
    ... on QueryTripSharesSuccess { data { id viaje_id url vigente vence_en revocado_en avisados } }
    ... on Error { code message }
  }
}`;

const links = async (userId: number, tripId: number) => (await app.graphql(LINKS, { trip: tripId }, userId)).data.tripShares;
const sharesOf = (tripId: number) => app.db.tripShare.count({ where: { viaje_id: tripId } });
const mailsTo = (address: string) => app.db.outboxMail.findMany({ where: { destinatario: address } });

describe("a share link", () => {
  it("is made by the passenger of an active trip: an address with 256 random bits, of which only the SHA-256 is kept", async () => {
    const { passenger, trip } = await tripIn(app, "aceptado");
    const link = await shareAs(app, passenger.id, trip.id);
    expect(link).toEqual({
      __typename: "EnlaceSeguimiento",
      id: expect.any(Number),
      viaje_id: trip.id,
      url: expect.stringMatching(/^https:\/\/viajes\.example\.co\/seguimiento\/[A-Za-z0-9_-]{43}$/),
      vigente: true,
      vence_en: null,
      avisados: [],
      revocado_en: null,
    });
    const token = tokenOf(link.url);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const row = await app.db.tripShare.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(Object.values(row).map(String).join(" ")).not.toContain(token);
    // Two links never share a token.
    expect(tokenOf((await shareAs(app, passenger.id, trip.id)).url)).not.toBe(token);
  });

  it("is made by the trip's driver too, and by nobody else; only for a trip that exists and has not ended", async () => {
    const { passenger, driver, trip } = await tripIn(app, "en_curso");
    expect((await shareAs(app, driver.id, trip.id)).__typename).toBe("EnlaceSeguimiento");
    const strangers = [await registerUser(app), await createDriver(app), await newAdmin(app)];
    for (const stranger of strangers) {
      expect(await shareAs(app, stranger.id, trip.id)).toEqual({
        __typename: "ForbiddenError",
        code: "FORBIDDEN",
        message: `Solo el pasajero o el conductor del viaje ${trip.id} pueden compartirlo`,
      });
    }
    expect(await shareAs(app, passenger.id, 999_999)).toMatchObject({ code: "NOT_FOUND", message: "No existe un viaje con id 999999" });
    expect(await shareAs(app, passenger.id, 0)).toMatchObject({ code: "VALIDATION", field: "trip_id" });
    expect((await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 15_000 })).status).toBe(200);
    expect(await shareAs(app, passenger.id, trip.id)).toMatchObject({
      code: "INVALID_STATE",
      message: `El viaje ${trip.id} ya está completado: solo se comparte un viaje activo`,
    });
    expect(await sharesOf(trip.id)).toBe(1);
  });

  it("is made for a pending trip by its passenger, who has no driver yet", async () => {
    const { passenger, trip } = await tripIn(app, "pendiente");
    expect((await shareAs(app, passenger.id, trip.id)).__typename).toBe("EnlaceSeguimiento");
  });

  it(`is made at most ${MAX_SHARES_PER_TRIP} times per person and trip, even all at once`, async () => {
    const { passenger, driver, trip } = await tripIn(app, "aceptado");
    const made = await Promise.all(Array.from({ length: MAX_SHARES_PER_TRIP + 2 }, () => shareAs(app, passenger.id, trip.id)));
    expect(made.filter((link) => link.__typename === "EnlaceSeguimiento")).toHaveLength(MAX_SHARES_PER_TRIP);
    expect(made.find((link) => link.__typename === "ConflictError").message).toBe(
      `Ya hiciste ${MAX_SHARES_PER_TRIP} enlaces para el viaje ${trip.id}; usa uno de ellos`,
    );
    // The driver's count is theirs.
    expect((await shareAs(app, driver.id, trip.id)).__typename).toBe("EnlaceSeguimiento");
    expect(await sharesOf(trip.id)).toBe(MAX_SHARES_PER_TRIP + 1);
  });
});

describe("mailing a link to one's emergency contacts", () => {
  it("queues one mail per contact with an e-mail, in the transaction that makes the link", async () => {
    const { passenger, trip } = await tripIn(app, "aceptado");
    const marta = `marta.${passenger.id}@example.com`;
    const jorge = `jorge.${passenger.id}@example.com`;
    for (const contact of [
      { nombre: "Marta", email: marta },
      { nombre: "Pedro", telefono: "3101234567" },
      { nombre: "Jorge", email: jorge, telefono: "3111234567" },
    ]) {
      expect((await app.legacy("POST", CONTACTS, { usuario_id: passenger.id, ...contact })).status).toBe(200);
    }
    const link = await shareAs(app, passenger.id, trip.id, true);
    expect(link).toMatchObject({ __typename: "EnlaceSeguimiento", avisados: ["Marta", "Jorge"] });
    for (const address of [marta, jorge]) {
      const [mail, ...more] = await mailsTo(address);
      expect(more).toEqual([]);
      expect(mail!.asunto).toMatch(/^Ana comparte su viaje contigo · /);
      expect(mail!.cuerpo).toContain(link.url);
    }
  });

  it("is remembered: the list of links and a revocation say whom each was mailed to, by name only, whatever the contacts become", async () => {
    const { passenger, trip } = await tripIn(app, "aceptado");
    const added = await app.legacy("POST", CONTACTS, {
      usuario_id: passenger.id,
      nombre: "Rosa Gómez",
      email: `rosa.${passenger.id}@example.com`,
    });
    const told = await shareAs(app, passenger.id, trip.id, true);
    const untold = await shareAs(app, passenger.id, trip.id);
    // A contact removed later was still told.
    const removed = await app.legacy("DELETE", CONTACTS, { usuario_id: passenger.id, contacto_id: added.body.contacto.id });
    expect(removed.status).toBe(200);
    expect((await links(passenger.id, trip.id)).data.map((link: { id: number; avisados: string[] }) => [link.id, link.avisados])).toEqual([
      [untold.id, []],
      [told.id, ["Rosa Gómez"]],
    ]);
    const revoked = await app.graphql(
      `mutation ($id: Int!) { revokeTripShare(enlace_id: $id) { ... on EnlaceSeguimiento { avisados } } }`,
      { id: told.id },
      passenger.id,
    );
    expect(revoked.data.revokeTripShare).toEqual({ avisados: ["Rosa Gómez"] });
    const kept = await app.db.tripShareRecipient.findMany({ where: { enlace_id: told.id } });
    expect(kept.map((row) => Object.keys(row).sort())).toEqual([["enlace_id", "id", "nombre"]]);
  });

  it("is remembered for the link an SOS mails to one's contacts too", async () => {
    const { passenger, trip } = await tripIn(app, "en_curso");
    await app.legacy("POST", CONTACTS, { usuario_id: passenger.id, nombre: "Luz", email: `luz.${passenger.id}@example.com` });
    await app.legacy("POST", CONTACTS, { usuario_id: passenger.id, nombre: "Tomás", telefono: "3101234567" });
    const sent = await post(app, "/user/sos.php", { usuario_id: passenger.id, trip_id: trip.id, latitud: 6.21, longitud: -75.57 });
    expect(sent.status).toBe(200);
    expect((await links(passenger.id, trip.id)).data.map((link: { avisados: string[] }) => link.avisados)).toEqual([["Luz"]]);
  });

  it("is refused when no contact has an e-mail, leaving neither a link nor a mail", async () => {
    const { passenger, trip } = await tripIn(app, "aceptado");
    const outbox = await app.db.outboxMail.count();
    const nobody = await shareAs(app, passenger.id, trip.id, true);
    expect(nobody).toEqual({
      __typename: "ValidationError",
      code: "VALIDATION",
      field: "enviar_a_contactos",
      message:
        "El campo 'enviar_a_contactos' pide enviarlo a tus contactos de emergencia, pero ninguno tiene correo: " +
        "agrega el correo de alguno, o comparte tú el enlace",
    });
    await app.legacy("POST", CONTACTS, { usuario_id: passenger.id, nombre: "Pedro", telefono: "3101234567" });
    expect((await shareAs(app, passenger.id, trip.id, true)).field).toBe("enviar_a_contactos");
    expect(await sharesOf(trip.id)).toBe(0);
    expect(await app.db.outboxMail.count()).toBe(outbox);
  });
});

describe("the links one made", () => {
  it("are listed without their address, revoked by whoever made them only, and expire 30 minutes after the trip ends", async () => {
    const { passenger, driver, trip } = await tripIn(app, "en_curso");
    const first = await sharedLink(app, passenger.id, trip.id);
    const second = await sharedLink(app, passenger.id, trip.id);
    const drivers = await sharedLink(app, driver.id, trip.id);
    const listed = await links(passenger.id, trip.id);
    expect(listed.data.map((link: { id: number }) => link.id)).toEqual([second.id, first.id]);
    expect(listed.data.every((link: { url: string | null; vigente: boolean }) => link.url === null && link.vigente)).toBe(true);
    expect((await links(driver.id, trip.id)).data.map((link: { id: number }) => link.id)).toEqual([drivers.id]);
    expect((await links((await registerUser(app)).id, trip.id)).code).toBe("FORBIDDEN");

    // Only its maker revokes a link: to anybody else it does not exist.
    const revoke = async (userId: number, id: number) => (await app.graphql(REVOKE_SHARE, { id }, userId)).data.revokeTripShare;
    expect(await revoke(driver.id, first.id)).toEqual({
      __typename: "NotFoundError",
      code: "NOT_FOUND",
      message: `No tienes un enlace de seguimiento con id ${first.id}`,
    });
    const revokedAt = clock.now().toISOString();
    const revoked = await revoke(passenger.id, first.id);
    expect(revoked).toEqual({ __typename: "EnlaceSeguimiento", id: first.id, vigente: false, revocado_en: revokedAt, vence_en: revokedAt });
    clock.advance(60_000);
    // Again: nothing changes.
    expect(await revoke(passenger.id, first.id)).toEqual(revoked);

    expect((await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 15_000 })).status).toBe(200);
    const endedAt = clock.now();
    const expiry = new Date(endedAt.getTime() + 30 * 60_000).toISOString();
    clock.advance(30 * 60_000 - 1);
    expect((await links(passenger.id, trip.id)).data[0]).toMatchObject({ id: second.id, vigente: true, vence_en: expiry });
    clock.advance(1);
    expect((await links(passenger.id, trip.id)).data[0]).toMatchObject({ id: second.id, vigente: false, vence_en: expiry });
  });
});
