import { describe, expect, it } from "vitest";
import { pairOnPostgres, postTo as call } from "../support/process.js";
import { REVOKE_SHARE, sharedTripOn, streamOn } from "../support/shares.js";
import { ESTADIO, LLERAS, northOf } from "../support/trips.js";

const pair = pairOnPostgres();

describe("a share page on two processes", () => {
  it("served by one process, follows the positions and changes reported to the other, and hears its revocation", async () => {
    const { a, b, db } = pair;
    // The link is made on A; a relative opens it on B.
    const { driver, tripId, asPassenger, linkId, token } = await sharedTripOn(a, db.prisma);
    const stream = await streamOn(b, token);
    try {
      expect((await stream.next()).data.viaje).toMatchObject({ estado: "aceptado", destino: ESTADIO });

      // Each position the driver's phone reports to A moves B's page.
      for (const km of [0.3, 0.6]) {
        const moved = northOf(LLERAS, km);
        expect((await call(a, "/conductor/update_location.php", { conductor_id: driver.id, ...moved })).status).toBe(200);
        const heard = await stream.next((event) => event.data.viaje?.posicion?.latitud === moved.latitud);
        expect(heard.data.viaje.posicion.longitud).toBe(moved.longitud);
      }
      // B's polled state knows the last one too.
      await expect
        .poll(async () => (await (await fetch(`http://127.0.0.1:${b.port}/seguimiento/${token}/estado`)).json()).viaje.posicion?.latitud)
        .toBe(northOf(LLERAS, 0.6).latitud);

      expect((await call(a, "/viajes/start_trip.php", { trip_id: tripId })).status).toBe(200);
      expect((await stream.next((event) => event.data.viaje?.estado === "en_curso")).event).toBe("viaje");

      // Revoked on A: B's page hears at once that it ended, and its stream closes.
      const revoked = await call(a, "/graphql", { query: REVOKE_SHARE, variables: { id: linkId } }, asPassenger);
      expect(revoked.body.data.revokeTripShare.vigente).toBe(false);
      expect((await stream.next((event) => event.event !== "viaje" && event.event !== "latido")).event).toBe("terminado");
      await stream.ended;
      const page = await fetch(`http://127.0.0.1:${b.port}/seguimiento/${token}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<body data-enlace="terminado">');
    } finally {
      stream.leave();
    }
  });
});
