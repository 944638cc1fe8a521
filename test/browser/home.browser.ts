import { describe, expect, it } from "vitest";
import { consoleRun, eventually } from "./support/console.js";

const run = consoleRun();

/** A figure as the page writes it ("$ 20.000", "1.234") down to its digits. */
const digits = (text: string | null) => Number((text ?? "").replace(/[^\d-]/g, ""));

/** Today, or `days` from today, in Bogotá as AAAA-MM-DD: the home page's period. */
const bogotaDay = (days = 0) =>
  new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "America/Bogota" }).format(
    new Date(Date.now() + days * 86_400_000),
  );

const STATS = `query ($desde: String, $hasta: String) {
  platformStats(desde: $desde, hasta: $hasta) {
    __typename
    ... on EstadisticasPlataforma {
      usuarios { total activos pasajeros conductores empresas administradores registros_hoy }
      conductores { en_linea disponibles en_viaje en_revision }
      viajes { total activos hoy }
      ingresos { hoy { bruto comision } mes { bruto comision } }
      periodo { viajes registros ingresos { bruto comision neto viajes_completados } }
    }
    ... on Error { message }
  }
}`;

describe("the home page", () => {
  it("shows the figures platformStats answers, and draws its charts", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    // Something to count today: a driver waiting for review, and a trip completed at 23.000 pesos.
    await api.submittedDriver("Lina", "Mora");
    const driver = await api.onlineDriver(admin);
    const passenger = await api.register("pasajero");
    const trip = await api.requestTrip(passenger.id);
    await api.legacy("POST", "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id });
    await api.legacy("POST", "/viajes/start_trip.php", { trip_id: trip.id });
    await api.legacy("POST", "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 23000 });

    const { page, open, signIn, screenshot } = await run.tab();
    await open();
    await signIn();
    const main = page.getByRole("region", { name: "Cifras principales" });
    await main.waitFor();
    const { platformStats: stats } = await api.graphql(STATS, { desde: bogotaDay(-6), hasta: bogotaDay() }, admin);
    expect(stats.__typename).toBe("EstadisticasPlataforma");
    expect(stats.ingresos.hoy.bruto).toBe(23000);

    // Each figure is a name and its value; read them as a person would, by the name.
    const figure = async (name: string) => {
      const card = page.locator(".cifra").filter({ has: page.getByText(name, { exact: true }) });
      expect(await card.count(), `the figure "${name}"`).toBe(1);
      return { value: await card.locator(".cifra__valor").textContent(), detail: await card.locator(".cifra__detalle").textContent() };
    };
    const users = await figure("Usuarios");
    expect(digits(users.value)).toBe(stats.usuarios.total);
    expect(users.detail).toContain(`${stats.usuarios.registros_hoy} nuevos hoy`);
    const online = await figure("Conductores en línea");
    expect(digits(online.value)).toBe(stats.conductores.en_linea);
    expect(online.detail).toBe(`${stats.conductores.disponibles} libres · ${stats.conductores.en_viaje} en viaje`);
    expect(digits((await figure("Solicitudes por revisar")).value)).toBe(stats.conductores.en_revision);
    expect(stats.conductores.en_revision).toBeGreaterThanOrEqual(1);
    const active = await figure("Viajes activos");
    expect(digits(active.value)).toBe(stats.viajes.activos);
    expect(active.detail).toMatch(new RegExp(`^${stats.viajes.hoy} pedidos hoy · ${stats.viajes.total} en total$`));
    expect(digits((await figure("Cobrado hoy")).value)).toBe(stats.ingresos.hoy.bruto);
    expect(digits((await figure("Cobrado hoy")).detail)).toBe(stats.ingresos.hoy.comision);
    expect(digits((await figure("Cobrado este mes")).value)).toBe(stats.ingresos.mes.bruto);
    expect(digits((await figure("Cobrado en el periodo")).value)).toBe(stats.periodo.ingresos.bruto);
    const period = await figure("Viajes en el periodo");
    expect(digits(period.value)).toBe(stats.periodo.viajes);
    expect(period.detail).toMatch(
      new RegExp(`^${stats.periodo.ingresos.viajes_completados} completados · ${stats.periodo.registros} registros$`),
    );

    // The charts: a canvas each, drawn at a real size, described for screen readers with the same figures.
    const charts = page.locator("canvas");
    await eventually(() => charts.count()).toBeGreaterThanOrEqual(5);
    for (const canvas of await charts.all()) {
      const size = await canvas.evaluate((element: HTMLCanvasElement) => ({ width: element.width, height: element.height }));
      expect(size.width).toBeGreaterThan(0);
      expect(size.height).toBeGreaterThan(0);
    }
    const accounts = page.getByRole("img", { name: /^Cuentas por tipo:/ });
    expect(await accounts.getAttribute("aria-label")).toBe(
      `Cuentas por tipo: Pasajeros ${stats.usuarios.pasajeros}, Conductores ${stats.usuarios.conductores}, Empresas ${stats.usuarios.empresas}, Administradores ${stats.usuarios.administradores}`,
    );
    // Something was painted on the trips chart: not every pixel is blank.
    const painted = await page.getByRole("img", { name: /^Viajes en el periodo:/ }).evaluate((element: HTMLCanvasElement) =>
      element
        .getContext("2d")!
        .getImageData(0, 0, element.width, element.height)
        .data.some((value, index) => index % 4 === 3 && value > 0),
    );
    expect(painted).toBe(true);
    await screenshot("home");
  });
});
