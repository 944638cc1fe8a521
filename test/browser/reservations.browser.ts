import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { consoleRun, eventually, fitsWidth, goTo, PHONE, said } from "./support/console.js";

const run = consoleRun();

// Places of Medellín's metropolitan area, each in the zone named.
const LLERAS = { direccion: "Parque Lleras, El Poblado", latitud: 6.2086, longitud: -75.5659 };
const ESTADIO = { direccion: "Estadio Atanasio Girardot", latitud: 6.2568, longitud: -75.5904 };
const ENVIGADO = { direccion: "Parque de Envigado", latitud: 6.1717, longitud: -75.5866 };
const BELLO = { direccion: "Parque de Bello", latitud: 6.3378, longitud: -75.5563 };

/** The day after tomorrow in Bogotá at `time`, as bookTrip takes a pickup time without a zone. */
const dayAfterTomorrow = (time: string) => `${new Date(Date.now() - 5 * 3600_000 + 2 * 86_400_000).toISOString().slice(0, 10)}T${time}`;

const BOOK = `mutation ($input: ReservaInput!) { bookTrip(input: $input) { __typename ... on Reserva { id zona } ... on Error { message } } }`;
const COMMIT = `mutation ($id: Int!) { commitToReservation(reserva_id: $id) { __typename ... on Error { message } } }`;
const CANCEL = `mutation ($id: Int!) { cancelReservation(reserva_id: $id) { __typename ... on Error { message } } }`;
const RESERVATION = `query ($id: Int!) {
  reservation(reserva_id: $id) { __typename ... on Reserva { estado cancelada_por motivo_cancelacion } ... on Error { message } }
}`;

/** The row of reservation `id`, which its hour's cell names. */
const rowOf = (within: Locator, id: number) => within.getByRole("row").filter({ hasText: new RegExp(`Reserva #${id}(?!\\d)`) });

/** The cards of the hours listed, one each. */
const hours = (page: Page) => page.locator(".reservas").getByRole("region");
/** The card of one hour's reservations, by the hour its heading names ("7 a. m."). */
const hour = (page: Page, name: RegExp) => hours(page).filter({ has: page.getByRole("heading", { name }) });
const SEVEN = /· 7\sa\.\s?m\.$/;
const NINE = /· 9\sa\.\s?m\.$/;

/** What a row says, its spaces as the operator reads them (Intl writes pesos and hours with no-break spaces). */
const text = async (row: Locator) => ((await row.textContent()) ?? "").replace(/\s+/g, " ");

describe("the reservations page", () => {
  // Booked through GraphQL by passengers: in Medellín at 7:30 taken by a car driver of the demo's
  // company, in Envigado at 7:45 and 7:50 taken by nobody, in Bello at 9:10 by a moto driver of none.
  const ids = { medellin: 0, envigado: 0, envigadoLater: 0, bello: 0 };
  let passenger: string;
  let admin: string;

  beforeAll(async () => {
    const { api } = run;
    admin = await api.adminToken();
    const valentina = await api.register("pasajero", "Valentina", "Ríos");
    passenger = await api.login(valentina.email);
    const book = async (tipo_servicio: string, origen: typeof LLERAS, time: string) => {
      const input = { tipo_servicio, origen, destino: ESTADIO, fecha_programada: dayAfterTomorrow(time) };
      const { bookTrip } = await api.graphql(BOOK, { input }, passenger);
      expect(bookTrip.__typename, JSON.stringify(bookTrip)).toBe("Reserva");
      return bookTrip as { id: number; zona: string };
    };
    const booked = {
      medellin: await book("auto", LLERAS, "07:30"),
      envigado: await book("auto", ENVIGADO, "07:45"),
      envigadoLater: await book("auto", { ...ENVIGADO, direccion: "Calle 38 Sur # 43-20, Envigado" }, "07:50"),
      bello: await book("motocicleta", BELLO, "09:10"),
    };
    expect(Object.values(booked).map((booking) => booking.zona)).toEqual(["Medellín", "Envigado", "Envigado", "Bello"]);
    for (const [key, booking] of Object.entries(booked)) ids[key as keyof typeof ids] = booking.id;
    const commit = async (email: string, id: number) => {
      const { commitToReservation } = await api.graphql(COMMIT, { id }, await api.login(email, "Conductor#2024"));
      expect(commitToReservation, JSON.stringify(commitToReservation)).toEqual({ __typename: "Reserva" });
    };
    await commit("diana.auto@demo.co", ids.medellin);
    await commit("carlos.moto@demo.co", ids.bello);
  });

  it("lists them by hour and zone with their state, and an administrator cancels one with a reason, audited", async () => {
    const reason = "Vía cerrada por obras en la Avenida Las Vegas";
    const { page, open, signIn, screenshot } = await run.tab();
    await open("reservas");
    await signIn();
    await page.getByRole("heading", { level: 1, name: "Reservas" }).waitFor();

    // 7 a. m. holds the three booked then, with their zones; 9 a. m. the one in Bello.
    const seven = hour(page, SEVEN);
    await eventually(() => seven.getByRole("row").count()).toBe(4);
    expect(await text(seven.locator(".tarjeta__cabecera"))).toContain("3 reservas · Envigado 2 · Medellín 1");
    const medellin = await text(rowOf(seven, ids.medellin));
    for (const part of ["7:30", "Medellín", "Parque Lleras", "Estadio Atanasio Girardot", "Auto", "$", "Diana Zapata", "Programada"]) {
      expect(medellin).toContain(part);
    }
    expect(await text(rowOf(seven, ids.envigado))).toContain("Sin conductor");
    const bello = await text(rowOf(hour(page, NINE), ids.bello));
    for (const part of ["9:10", "Bello", "Moto", "Carlos Mejía", "Programada"]) expect(bello).toContain(part);
    await screenshot("reservations");

    // By zone: Envigado's only.
    await page.getByLabel("Zona").selectOption("Envigado");
    await eventually(() => hours(page).count()).toBe(1);
    expect(await rowOf(seven, ids.envigado).count()).toBe(1);
    expect(await rowOf(seven, ids.medellin).count()).toBe(0);
    await page.getByLabel("Zona").selectOption("");
    await eventually(() => hours(page).count()).toBe(2);

    // Cancelled by its passenger meanwhile, one can no longer be cancelled: the API's words say so.
    expect((await run.api.graphql(CANCEL, { id: ids.envigadoLater }, passenger)).cancelReservation).toEqual({ __typename: "Reserva" });
    await rowOf(seven, ids.envigadoLater)
      .getByRole("button", { name: `Cancelar la reserva ${ids.envigadoLater}` })
      .click();
    const late = page.getByRole("dialog", { name: `Cancelar la reserva #${ids.envigadoLater}` });
    await late.getByRole("textbox", { name: "Motivo" }).fill(reason);
    await late.getByRole("button", { name: "Cancelar la reserva" }).click();
    await eventually(() => late.getByRole("alert").textContent()).toBe(
      `La reserva ${ids.envigadoLater} está cancelada; ya no se puede cambiar ni cancelar`,
    );
    await late.getByRole("button", { name: "Volver" }).click();

    // The reason is required, then the reservation is cancelled.
    await rowOf(seven, ids.envigado)
      .getByRole("button", { name: `Cancelar la reserva ${ids.envigado}` })
      .click();
    const asking = page.getByRole("dialog", { name: `Cancelar la reserva #${ids.envigado}` });
    expect(await asking.textContent()).toContain("a las 7:45");
    expect(await asking.getByRole("button", { name: "Cancelar la reserva" }).isDisabled()).toBe(true);
    await asking.getByRole("textbox", { name: "Motivo" }).fill(reason);
    await screenshot("reservations-cancel-reason");
    await asking.getByRole("button", { name: "Cancelar la reserva" }).click();
    await said(page, `La reserva #${ids.envigado} quedó cancelada; su pasajero recibe el motivo.`);
    const cancelled = rowOf(seven, ids.envigado);
    await eventually(() => text(cancelled)).toContain("Cancelada");
    expect(await text(cancelled)).toContain(reason);
    expect(await cancelled.getByRole("button").count()).toBe(0);
    expect((await run.api.graphql(RESERVATION, { id: ids.envigado }, admin)).reservation).toEqual({
      __typename: "Reserva",
      estado: "cancelada",
      cancelada_por: "admin",
      motivo_cancelacion: reason,
    });
    await screenshot("reservations-cancelled");

    // By state, asked of the API: the two cancelled.
    await page.getByLabel("Estado").selectOption("cancelada");
    await eventually(() => seven.getByRole("row").count()).toBe(3);
    expect(await hours(page).count()).toBe(1);

    await goTo(page, "Auditoría");
    await page.getByRole("heading", { level: 1, name: "Auditoría" }).waitFor();
    const entry = page
      .getByRole("table", { name: "Entradas de la auditoría" })
      .getByRole("row")
      .filter({ hasText: `Canceló la reserva ${ids.envigado}` });
    await eventually(() => entry.count()).toBe(1);
    expect(await entry.textContent()).toContain(reason);
    expect(await entry.textContent()).toContain("Andrea Admin");
  });

  it("shows a company's managers the reservations their drivers took, and no other, nor who booked them", async () => {
    const { page, open, signIn, screenshot } = await run.tab();
    await open();
    await signIn("gestor@demo.co", "Empresa#2024");
    await goTo(page, "Reservas");
    await page.getByRole("heading", { level: 1, name: "Reservas" }).waitFor();
    const seven = hour(page, SEVEN);
    const ours = rowOf(seven, ids.medellin);
    await eventually(() => ours.count()).toBe(1);
    expect(await text(ours)).toContain("Diana Zapata");
    expect(await hours(page).count()).toBe(1);
    for (const other of [ids.envigado, ids.envigadoLater, ids.bello]) expect(await rowOf(page.getByRole("main"), other).count()).toBe(0);
    expect(await page.getByRole("main").textContent()).not.toMatch(/Valentina|Ríos/);
    // Read-only: nothing to cancel.
    expect(await seven.getByRole("button").count()).toBe(0);
    await screenshot("company-reservations");

    const phone = await run.tab(PHONE);
    await phone.open("reservas");
    await phone.signIn("gestor@demo.co", "Empresa#2024");
    await eventually(() => rowOf(hour(phone.page, SEVEN), ids.medellin).count()).toBe(1);
    await fitsWidth(phone.page, PHONE.width);
    await phone.screenshot("phone-company-reservations");
  });
});
