import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { dateTime, pesos } from "../../format";
import { HistoriaDelViajeDocument } from "../../gql/graphql";

/** Each event of a trip's history in words. */
const EVENTS: Record<string, string> = {
  pin_correcto: "El conductor dio el PIN correcto",
  pin_incorrecto: "El conductor dio un PIN incorrecto",
  inicio_bloqueado: "Inicio bloqueado tras 5 PIN incorrectos",
  inicio_confirmado: "El pasajero confirmó el inicio en su app",
  cambio_pedido: "El pasajero pidió un cambio de recorrido",
  cambio_aceptado: "El conductor aceptó el cambio",
  cambio_rechazado: "El conductor rechazó el cambio",
  cambio_vencido: "El cambio venció sin respuesta del conductor",
};

const CHANGE_STATES: Record<string, string> = {
  pendiente: "esperando al conductor",
  aceptado: "aceptado",
  rechazado: "rechazado",
  vencido: "vencido",
};

/** What an event's details add to its words: the attempt of a PIN, the prices of a change. */
function detail(detalles: string | null): string {
  if (!detalles) return "";
  const parsed = JSON.parse(detalles) as { intento?: number; precio_antes?: number; precio_despues?: number };
  if (parsed.intento !== undefined) return ` (intento ${parsed.intento})`;
  if (parsed.precio_antes !== undefined && parsed.precio_despues !== undefined) {
    return ` (${pesos(parsed.precio_antes)} → ${pesos(parsed.precio_despues)})`;
  }
  return "";
}

const stopTimes = (stop: { llegada_en?: string | null; salida_en?: string | null }) =>
  [stop.llegada_en && `llegó ${dateTime(stop.llegada_en)}`, stop.salida_en && `salió ${dateTime(stop.salida_en)}`]
    .filter(Boolean)
    .join(", ");

/** A trip's stops, the changes asked during the ride and its history, read when its detail opens. */
export function TripHistory({ tripId }: { tripId: number }) {
  const read = useQuery(HistoriaDelViajeDocument, { trip_id: tripId }, (data) => success(data.trip));
  const trip = read.data;
  if (!trip || (trip.paradas.length === 0 && (trip.cambios ?? []).length === 0 && (trip.historial ?? []).length === 0)) return null;
  return (
    <section className="historia-viaje" aria-label="Historia del viaje">
      {trip.paradas.length > 0 && (
        <>
          <h3>Paradas</h3>
          <ol>
            {trip.paradas.map((stop) => (
              <li key={stop.orden}>
                {stop.direccion}
                {stopTimes(stop) && ` · ${stopTimes(stop)}`}
              </li>
            ))}
          </ol>
        </>
      )}
      {(trip.cambios ?? []).length > 0 && (
        <>
          <h3>Cambios de recorrido</h3>
          <ul>
            {trip.cambios!.map((change) => (
              <li key={change.id}>
                {dateTime(change.creado_en)} · a {change.destino.direccion}: {pesos(change.precio_antes)} → {pesos(change.precio_despues)},{" "}
                {CHANGE_STATES[change.estado] ?? change.estado}
              </li>
            ))}
          </ul>
        </>
      )}
      {(trip.historial ?? []).length > 0 && (
        <>
          <h3>Historial</h3>
          <ul>
            {trip.historial!.map((event) => (
              <li key={event.id}>
                {dateTime(event.creado_en)} · {EVENTS[event.tipo] ?? event.tipo}
                {detail(event.detalles ?? null)}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
