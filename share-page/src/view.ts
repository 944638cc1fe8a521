import type { TripMap } from "./map.ts";
import { isOver, STATE_NAMES, type SharedTrip, VEHICLE_NAMES } from "./trip.ts";

const element = (id: string) => document.getElementById(id)!;

const clock = new Intl.DateTimeFormat("es-CO", { hour: "numeric", minute: "2-digit" });
const clockWithSeconds = new Intl.DateTimeFormat("es-CO", { hour: "numeric", minute: "2-digit", second: "2-digit" });

/** "en 12 min" from now, or "ya casi" under a minute. */
function fromNow(at: Date): string {
  const minutes = Math.round((at.getTime() - Date.now()) / 60_000);
  return minutes < 1 ? "ya casi" : `en ${minutes} min`;
}

/** "hace 4 s", "hace 3 min". */
function ago(at: Date): string {
  const seconds = Math.max(0, Math.round((Date.now() - at.getTime()) / 1000));
  return seconds < 60 ? `hace ${seconds} s` : `hace ${Math.floor(seconds / 60)} min`;
}

const joined = (...parts: Array<string | null | undefined>) => parts.filter(Boolean).join(" · ");

function title(trip: SharedTrip): string {
  const who = trip.pasajero ?? "Tu contacto";
  if (trip.estado === "completado") return `${who} llegó a su destino`;
  if (trip.estado === "cancelado") return `El viaje de ${who} se canceló`;
  if (trip.estado === "en_curso") return `${who} va en camino${trip.conductor ? ` con ${trip.conductor}` : ""}`;
  return `${who} comparte su viaje contigo`;
}

/** What the page says about the trip: each field as text (never HTML), and the map. */
export function showTrip(trip: SharedTrip, map: TripMap): void {
  const badge = element("estado");
  badge.textContent = STATE_NAMES[trip.estado];
  badge.dataset.estado = trip.estado;
  element("titulo-viaje").textContent = title(trip);
  element("conductor").textContent = trip.conductor ?? "Aún sin conductor";
  const vehicle = trip.vehiculo;
  element("vehiculo").textContent = vehicle
    ? joined(vehicle.tipo ? (VEHICLE_NAMES[vehicle.tipo] ?? vehicle.tipo) : null, vehicle.marca, vehicle.color) || "—"
    : "—";
  element("placa").textContent = vehicle?.placa ?? "—";
  element("origen").textContent = trip.origen.direccion;
  element("destino").textContent = trip.destino.direccion;
  element("paradas-fila").hidden = trip.paradas.length === 0;
  element("leyenda-parada").hidden = trip.paradas.length === 0;
  element("paradas").textContent = trip.paradas
    .map((stop, i) => `${i + 1}. ${stop.direccion}${stop.visitada ? " (ya pasó)" : ""}`)
    .join("\n");
  const ended = trip.terminado_en ? new Date(trip.terminado_en) : null;
  element("llegada-titulo").textContent = isOver(trip) ? "Terminó" : "Llegada estimada";
  if (ended) element("llegada").textContent = clock.format(ended);
  else if (trip.llegada_estimada) {
    const arrival = new Date(trip.llegada_estimada);
    element("llegada").textContent = `${clock.format(arrival)} (${fromNow(arrival)})`;
  } else element("llegada").textContent = "—";
  element("posicion").textContent = trip.posicion
    ? `Actualizada a las ${clockWithSeconds.format(new Date(trip.posicion.en))}`
    : isOver(trip)
      ? "Ya no se muestra"
      : "Aún sin posición";
  map.show(trip);
}

let lastHeard: Date | null = null;

/** When the page last heard from the server, kept current every second. */
export function heardAt(servidorEn: string): void {
  lastHeard = new Date(servidorEn);
  showHeard();
}

export function showHeard(): void {
  const time = document.getElementById("actualizado") as HTMLTimeElement | null;
  if (!lastHeard || !time) return;
  time.dateTime = lastHeard.toISOString();
  time.textContent = `${ago(lastHeard)} (${clockWithSeconds.format(lastHeard)})`;
}

/** How the page gets its news: live, polling because the live channel dropped, or not at all for now. */
export function showConnection(text: string, mode: "vivo" | "sondeo" | "sin-conexion"): void {
  const status = element("conexion");
  status.textContent = text;
  status.dataset.modo = mode;
}

/** The link shows the trip no more (or never did): the page shows only that, and keeps nothing of the trip. */
export function showLink(state: "terminado" | "desconocido"): void {
  document.body.dataset.enlace = state;
  document.getElementById("viaje")?.remove();
}
