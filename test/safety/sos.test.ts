import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findShare, isShowing } from "../../src/domain/safety/share-links.js";
import { SOS_REPEAT_MS } from "../../src/domain/safety/sos.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { activeCompany, field, tripRow } from "../support/companies.js";
import { newAdmin } from "../support/drivers.js";
import { watchRejections } from "../support/rejections.js";
import { startSmtp, type TestSmtp } from "../support/smtp.js";
import { createPassenger, tripIn } from "../support/trips.js";
import { connect, subscribe } from "../support/ws.js";

/*
 * An SOS from a trip under way, end to end: who may send one, the incident it makes (once), the
 * mails that leave through a real SMTP server, the operators' acknowledgement, resolution and the
 * escalation of what nobody took, the history and the audit log, and who reads which incidents.
 */
const rejections = watchRejections();
const OPERATIONS = "operaciones@pingo.test";
const ESCALATION = "guardia@pingo.test";
const ESCALATE_S = 60;

let app: TestApp;
let smtp: TestSmtp;
let port: number;
let admin: { id: number };
const clock = new FixedClock(new Date());
const clients: Client[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  app = await createTestApp({
    clock,
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: "Pingo <no-responder@pingo.test>",
      MAIL_POLL_MS: "100",
      SOS_EMAIL: OPERATIONS,
      SOS_ESCALATION_EMAIL: ESCALATION,
      SOS_ESCALATE_S: String(ESCALATE_S),
      PUBLIC_URL: "https://viajes.pingo.test",
    },
  });
  ({ port } = await app.server.start(0, "127.0.0.1"));
  admin = await newAdmin(app);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await app.close();
  await smtp.close();
  expect(rejections).toEqual([]);
});

const SEND = `mutation ($viaje: Int!, $lat: Float!, $lng: Float!) {
  sendSos(viaje_id: $viaje, latitud: $lat, longitud: $lng) {
    __typename ... on Error { message } ... on IncidenteSos { id estado rol viaje_id enlace_seguimiento }
  }
}`;
const ACK = `mutation ($id: Int!) { acknowledgeSos(incidente_id: $id) { __typename ... on Error { message } ... on IncidenteSos { estado atendido_por } } }`;
const RESOLVE = `mutation ($id: Int!, $nota: String!) {
  resolveSos(incidente_id: $id, nota: $nota) { __typename ... on Error { message } ... on IncidenteSos { estado nota resuelto_por } }
}`;
const DETAIL = `query ($id: Int!) {
  sosIncident(incidente_id: $id) {
    __typename ... on Error { message }
    ... on DetalleIncidenteSos { incidente { estado escalado escalado_en } historial { tipo actor_id detalle } }
  }
}`;
const LIST = `query { sosIncidents(per_page: 100) { __typename ... on Error { message } ... on PaginaIncidentesSos { items { id } } } }`;

const HERE = { latitud: 6.2101, longitud: -75.5712 };
const sos = (path: "/user/sos.php" | "/conductor/sos.php", body: Record<string, unknown>, headers?: Record<string, string>) =>
  app.legacy("POST", path, { ...HERE, ...body }, headers);

/** A trip under way whose passenger has two emergency contacts, one of them without an e-mail. */
async function tripWithContacts() {
  const trip = await tripIn(app, "en_curso");
  const contact = `mama.${trip.trip.id}@familia.test`;
  await app.db.emergencyContact.createMany({
    data: [
      { usuario_id: trip.passenger.id, nombre: "Marta Restrepo", email: contact, creado_en: clock.now() },
      { usuario_id: trip.passenger.id, nombre: "Tío Juan", telefono: "3001112233", creado_en: clock.now() },
    ],
  });
  return { ...trip, contact };
}

const steps = async (id: number) => (await field(app, DETAIL, { id }, admin.id)).historial.map((step: { tipo: string }) => step.tipo);
const mailsAbout = (id: number) => app.db.outboxMail.findMany({ where: { asunto: { startsWith: `SOS #${id}:` } }, orderBy: { id: "asc" } });

describe("who may send an SOS", () => {
  it("is the passenger or the assigned driver of an active trip, and nobody else", async () => {
    const { passenger, driver, trip } = await tripIn(app, "aceptado");
    const stranger = await createPassenger(app);
    const refused = await sos("/user/sos.php", { usuario_id: stranger.id, trip_id: trip.id });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      success: false,
      message: `Solo el pasajero o el conductor asignado del viaje ${trip.id} pueden enviar un SOS desde él`,
    });
    // An administrator is no party either, and neither is a driver naming themself as the passenger's app would.
    expect((await app.graphql(SEND, { viaje: trip.id, lat: 6.2, lng: -75.5 }, admin.id)).data.sendSos.__typename).toBe("ForbiddenError");
    expect((await sos("/user/sos.php", { usuario_id: driver.id, trip_id: trip.id })).status).toBe(200);
    expect((await sos("/conductor/sos.php", { conductor_id: passenger.id, trip_id: trip.id })).status).toBe(200);

    const pending = await tripIn(app, "pendiente");
    const noDriverYet = await sos("/conductor/sos.php", { conductor_id: driver.id, trip_id: pending.trip.id });
    expect(noDriverYet.status).toBe(403);

    const finished = await tripIn(app, "completado");
    const late = await sos("/user/sos.php", { usuario_id: finished.passenger.id, trip_id: finished.trip.id });
    expect(late.status).toBe(403);
    expect(late.body.message).toBe(`El viaje ${finished.trip.id} ya terminó (completado): un SOS se envía desde un viaje activo`);

    expect((await sos("/user/sos.php", { usuario_id: passenger.id, trip_id: 999_999 })).status).toBe(404);
    const wrong = await sos("/user/sos.php", { usuario_id: passenger.id, trip_id: trip.id, latitud: 123 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("El campo 'latitud' debe estar entre -90 y 90");
    const missing = await app.legacy("POST", "/user/sos.php", { usuario_id: passenger.id, latitud: 6.2, longitud: -75.5 });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("El campo 'trip_id' es obligatorio");
    expect(await app.db.sosIncident.count({ where: { viaje_id: { in: [pending.trip.id, finished.trip.id] } } })).toBe(0);
  });
});

describe("an SOS", () => {
  it("makes one incident, mails the contacts and operations with the link and the position, and keeps its history and audit", async () => {
    const { passenger, trip, contact } = await tripWithContacts();
    const sent = await sos("/user/sos.php", { usuario_id: passenger.id, trip_id: trip.id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const { incidente } = sent.body;
    expect(incidente).toMatchObject({ viaje_id: trip.id, usuario_id: passenger.id, rol: "pasajero", estado: "abierto", ...HERE });
    expect(incidente.enlace_seguimiento).toMatch(/^https:\/\/viajes\.pingo\.test\/seguimiento\/[\w-]{43}$/);

    const stored = await app.db.sosIncident.findUniqueOrThrow({ where: { id: incidente.id } });
    expect(stored.escalar_en).toEqual(new Date(clock.now().getTime() + ESCALATE_S * 1000));
    // The link opens the trip, and is the one kept with the incident.
    const opened = await findShare(app.db, incidente.enlace_seguimiento.split("/").pop());
    expect(opened && isShowing(opened, clock.now())).toBe(true);
    expect(opened).toMatchObject({ id: stored.compartido_id, viaje_id: trip.id });
    expect((await app.db.tripShare.findUniqueOrThrow({ where: { id: opened!.id } })).creado_por).toBe(passenger.id);

    const [toContact, toOperations] = await Promise.all([
      smtp.waitFor((mail) => mail.to.includes(contact)),
      smtp.waitFor((mail) => mail.to.includes(OPERATIONS) && mail.subject.startsWith(`SOS #${incidente.id}:`)),
    ]);
    for (const mail of [toContact, toOperations]) {
      expect(mail.text).toContain(incidente.enlace_seguimiento);
      expect(mail.text).toContain(`Posición: ${HERE.latitud}, ${HERE.longitud}`);
    }
    expect(toContact.subject).toBe(`SOS #${incidente.id}: Ana Restrepo pidió ayuda · Viax`);
    expect(toContact.text).toContain("Hola Marta Restrepo:");
    expect(toOperations.text).toContain(`desde el viaje ${trip.id}`);
    expect(toOperations.text).toContain("https://viajes.pingo.test/consola/sos");
    // The contact without an e-mail is not written to: two mails in all.
    expect((await mailsAbout(incidente.id)).map((mail) => mail.destinatario).sort()).toEqual([contact, OPERATIONS].sort());

    expect(await steps(incidente.id)).toEqual(["enviado", "avisado"]);
    const audited = await app.db.auditEntry.findFirstOrThrow({ where: { accion: "enviar_sos", objetivo_id: incidente.id } });
    expect(audited).toMatchObject({ objetivo_tipo: "incidente_sos", admin_id: passenger.id });
    expect(JSON.parse(audited.detalles!)).toEqual({ viaje_id: trip.id, rol: "pasajero", ...HERE });
  });

  it("sent again within a minute, or with the same Idempotency-Key, is the same incident, mailed once", async () => {
    const { driver, trip } = await tripWithContacts();
    const key = { "idempotency-key": `sos-${trip.id}` };
    const first = await sos("/conductor/sos.php", { conductor_id: driver.id, trip_id: trip.id }, key);
    const replayed = await sos("/conductor/sos.php", { conductor_id: driver.id, trip_id: trip.id }, key);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(first.body);
    const id = first.body.incidente.id;

    clock.advance(SOS_REPEAT_MS - 1000);
    const again = await sos("/conductor/sos.php", { conductor_id: driver.id, trip_id: trip.id, latitud: 6.215 });
    expect(again.status).toBe(200);
    expect(again.body.incidente).toMatchObject({ id, enlace_seguimiento: null });
    // Two at once, without a key: still the same incident.
    const both = await Promise.all([1, 2].map(() => sos("/conductor/sos.php", { conductor_id: driver.id, trip_id: trip.id })));
    expect(both.map((answer) => answer.body.incidente.id)).toEqual([id, id]);
    expect(await app.db.sosIncident.count({ where: { viaje_id: trip.id } })).toBe(1);
    expect((await mailsAbout(id)).length).toBe(1);
    expect(await steps(id)).toEqual(["enviado", "avisado", "repetido", "repetido", "repetido"]);
    expect((await field(app, DETAIL, { id }, admin.id)).historial[2].detalle).toBe("Posición 6.215, -75.5712");

    clock.advance(2000);
    const later = await sos("/conductor/sos.php", { conductor_id: driver.id, trip_id: trip.id });
    expect(later.body.incidente.id).not.toBe(id);
    // The passenger of the same trip is another person: their SOS is theirs.
    const passengers = await app.legacy("POST", "/user/sos.php", {
      usuario_id: (await tripRider(trip.id)).usuario_id,
      trip_id: trip.id,
      ...HERE,
    });
    expect(passengers.body.incidente.id).not.toBe(later.body.incidente.id);
  });
});

const tripRider = (id: number) => app.db.trip.findUniqueOrThrow({ where: { id } });

describe("operators", () => {
  it("acknowledge an SOS, then resolve it with a note; each step is kept and audited", async () => {
    const { passenger, trip } = await tripIn(app, "en_curso");
    const { id } = (await sos("/user/sos.php", { usuario_id: passenger.id, trip_id: trip.id })).body.incidente;
    expect((await app.graphql(RESOLVE, { id, nota: "Todo bien" }, admin.id)).data.resolveSos).toEqual({
      __typename: "InvalidStateError",
      message: `Atiende el SOS ${id} antes de resolverlo`,
    });
    // Neither the sender nor a passenger acknowledges one.
    expect((await app.graphql(ACK, { id }, passenger.id)).data.acknowledgeSos.__typename).toBe("ForbiddenError");
    const [one, two] = await Promise.all([app.graphql(ACK, { id }, admin.id), app.graphql(ACK, { id }, admin.id)]);
    expect([one.data.acknowledgeSos.__typename, two.data.acknowledgeSos.__typename].sort()).toEqual(["IncidenteSos", "InvalidStateError"]);
    expect(await app.db.sosIncident.findUniqueOrThrow({ where: { id } })).toMatchObject({
      estado: "atendido",
      atendido_por: admin.id,
      escalar_en: null,
    });

    const blank = await app.graphql(RESOLVE, { id, nota: "  " }, admin.id);
    expect(blank.data.resolveSos).toEqual({ __typename: "ValidationError", message: "El campo 'nota' no puede estar vacío" });
    const resolved = await app.graphql(RESOLVE, { id, nota: "Llamamos al pasajero: estaba a salvo" }, admin.id);
    expect(resolved.data.resolveSos).toEqual({
      __typename: "IncidenteSos",
      estado: "resuelto",
      nota: "Llamamos al pasajero: estaba a salvo",
      resuelto_por: admin.id,
    });
    expect(await steps(id)).toEqual(["enviado", "avisado", "atendido", "resuelto"]);
    const audit = await app.db.auditEntry.findMany({ where: { objetivo_tipo: "incidente_sos", objetivo_id: id }, orderBy: { id: "asc" } });
    expect(audit.map((entry) => [entry.accion, entry.admin_id])).toEqual([
      ["enviar_sos", passenger.id],
      ["atender_sos", admin.id],
      ["resolver_sos", admin.id],
    ]);
    // Nobody deletes an incident: there is no operation for it, and it stays listed once resolved.
    expect((await field(app, LIST, {}, admin.id)).items).toContainEqual({ id });
  });

  it("make a new link to follow the trip, which only they are answered", async () => {
    const { passenger, trip } = await tripIn(app, "en_curso");
    const { id } = (await sos("/user/sos.php", { usuario_id: passenger.id, trip_id: trip.id })).body.incidente;
    const SHARE = `mutation ($id: Int!) { shareSosTrip(incidente_id: $id) { __typename ... on IncidenteSos { enlace_seguimiento } } }`;
    const { enlace_seguimiento } = await field(app, SHARE, { id }, admin.id);
    expect(enlace_seguimiento).toMatch(/\/seguimiento\/[\w-]{43}$/);
    expect(await app.db.tripShare.count({ where: { viaje_id: trip.id } })).toBe(2);
    expect((await app.graphql(SHARE, { id }, passenger.id)).data.shareSosTrip.__typename).toBe("ForbiddenError");
    expect(await app.db.auditEntry.count({ where: { accion: "enlace_sos", objetivo_id: id } })).toBe(1);
  });
});

describe("escalation", () => {
  it("mails SOS_ESCALATION_EMAIL once when nobody acknowledged an SOS in time, and leaves it flagged until taken", async () => {
    const { passenger, trip } = await tripIn(app, "en_curso");
    const { id } = (await sos("/user/sos.php", { usuario_id: passenger.id, trip_id: trip.id })).body.incidente;

    clock.advance(ESCALATE_S * 1000 - 1000);
    await app.server.nudgeEscalation();
    expect((await app.db.sosIncident.findUniqueOrThrow({ where: { id } })).escalado_en).toBeNull();

    clock.advance(1000);
    await Promise.all([app.server.nudgeEscalation(), app.server.nudgeEscalation()]);
    await app.server.nudgeEscalation();
    const escalated = await app.db.sosIncident.findUniqueOrThrow({ where: { id } });
    expect(escalated).toMatchObject({ estado: "abierto", escalar_en: null, escalado_en: clock.now() });
    const mail = await smtp.waitFor((received) => received.to.includes(ESCALATION) && received.subject.startsWith(`SOS #${id}:`));
    expect(mail.subject).toBe(`SOS #${id}: sin atender tras ${ESCALATE_S} s · Viax`);
    expect(mail.text).toMatch(/Sigue el viaje en vivo: https:\/\/viajes\.pingo\.test\/seguimiento\/[\w-]{43}/);
    expect((await mailsAbout(id)).filter((row) => row.destinatario === ESCALATION)).toHaveLength(1);
    expect(await steps(id)).toEqual(["enviado", "avisado", "escalado"]);
    const audited = await app.db.auditEntry.findFirstOrThrow({ where: { accion: "escalar_sos", objetivo_id: id } });
    expect(audited).toMatchObject({ admin_id: null, via: "servicio" });

    // Flagged until an operator takes it; taken, it reads as taken, and when it was escalated stays in its history.
    const escalatedAt = clock.now().toISOString();
    expect((await field(app, DETAIL, { id }, admin.id)).incidente).toEqual({ estado: "abierto", escalado: true, escalado_en: escalatedAt });
    clock.advance(5000);
    const TAKE = `mutation ($id: Int!) { acknowledgeSos(incidente_id: $id) { ... on IncidenteSos { estado escalado escalado_en } } }`;
    expect(await field(app, TAKE, { id }, admin.id)).toEqual({ estado: "atendido", escalado: false, escalado_en: escalatedAt });
    const detail = await field(app, DETAIL, { id }, admin.id);
    expect(detail.incidente).toEqual({ estado: "atendido", escalado: false, escalado_en: escalatedAt });
    expect(detail.historial.map((step: { tipo: string }) => step.tipo)).toEqual(["enviado", "avisado", "escalado", "atendido"]);
  });

  it("never comes for an SOS acknowledged in time", async () => {
    const { passenger, trip } = await tripIn(app, "en_curso");
    const { id } = (await sos("/user/sos.php", { usuario_id: passenger.id, trip_id: trip.id })).body.incidente;
    expect((await app.graphql(ACK, { id }, admin.id)).data.acknowledgeSos.estado).toBe("atendido");
    clock.advance(ESCALATE_S * 1000 * 2);
    await app.server.nudgeEscalation();
    expect((await app.db.sosIncident.findUniqueOrThrow({ where: { id } })).escalado_en).toBeNull();
    expect(await steps(id)).toEqual(["enviado", "avisado", "atendido"]);
  });
});

describe("who reads incidents", () => {
  it("is every operator for all of them, and a company's managers for those of the trips done for it", async () => {
    const mine = await activeCompany(app, admin.id, "Flota Segura");
    const theirs = await activeCompany(app, admin.id, "Otra Flota");
    const { passenger, driver } = await tripIn(app, "completado");
    const tripFor = (empresa_id: number) =>
      tripRow(app, { usuario_id: passenger.id, conductor_id: driver.id, estado: "en_curso", empresa_id, fecha_solicitud: clock.now() });
    const [ours, other] = [await tripFor(mine.company.id), await tripFor(theirs.company.id)];
    const oursSos = (await sos("/conductor/sos.php", { conductor_id: driver.id, trip_id: ours.id })).body.incidente;
    const otherSos = (await sos("/conductor/sos.php", { conductor_id: driver.id, trip_id: other.id })).body.incidente;
    expect(await app.db.sosIncident.findUniqueOrThrow({ where: { id: oursSos.id } })).toMatchObject({ empresa_id: mine.company.id });

    expect((await field(app, LIST, {}, mine.manager.id)).items).toEqual([{ id: oursSos.id }]);
    expect((await field(app, DETAIL, { id: oursSos.id }, mine.manager.id)).historial[0].tipo).toBe("enviado");
    expect((await app.graphql(DETAIL, { id: otherSos.id }, mine.manager.id)).data.sosIncident.__typename).toBe("ForbiddenError");
    // Managers read; operators act.
    expect((await app.graphql(ACK, { id: oursSos.id }, mine.manager.id)).data.acknowledgeSos.__typename).toBe("ForbiddenError");
    const everyone = (await field(app, LIST, {}, admin.id)).items.map((item: { id: number }) => item.id);
    expect(everyone).toEqual(expect.arrayContaining([oursSos.id, otherSos.id]));
    expect((await app.graphql(LIST, {}, passenger.id)).data.sosIncidents.__typename).toBe("ForbiddenError");

    // Live: the manager hears of their company's incidents only, the operators of all.
    const ALERTS = `subscription { sosAlerts { id estado enlace_seguimiento } }`;
    const live = async (userId: number) => {
      const client = await connect(port, await app.bearer(userId));
      clients.push(client);
      return subscribe(client, ALERTS);
    };
    const [managerFeed, operatorFeed] = [await live(mine.manager.id), await live(admin.id)];
    await expect((await live(passenger.id)).next()).rejects.toThrow(
      "Esta consulta es para los gestores de una empresa y los administradores",
    );
    expect((await managerFeed.next()).sosAlerts).toMatchObject({ id: oursSos.id, estado: "abierto", enlace_seguimiento: null });
    const fresh = await tripFor(mine.company.id);
    const freshSos = (await sos("/user/sos.php", { usuario_id: passenger.id, trip_id: fresh.id })).body.incidente;
    expect((await managerFeed.next()).sosAlerts).toEqual({
      id: freshSos.id,
      estado: "abierto",
      enlace_seguimiento: freshSos.enlace_seguimiento,
    });
    const seen: number[] = [];
    for (;;) {
      const { sosAlerts } = await operatorFeed.next();
      seen.push(sosAlerts.id);
      if (sosAlerts.id === freshSos.id) {
        expect(sosAlerts.enlace_seguimiento).toBe(freshSos.enlace_seguimiento);
        break;
      }
    }
    expect(seen).toEqual(expect.arrayContaining([oursSos.id, otherSos.id]));
    expect(new Set(seen).size).toBe(seen.length);
  });
});
