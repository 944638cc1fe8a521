import { Badge } from "../../components/badge";
import { counted, date, number, percent } from "../../format";
import type { ConexionConductor, DocumentoConVencimiento, EstadoViaje } from "../../gql/graphql";
import { CONNECTION_STATES, DUE_DOCUMENTS, labelOf, TRIP_STATES } from "../../labels";

/** Where a driver is now, and the trip they are on. */
export function Connection({
  driver,
}: {
  driver: { conexion: ConexionConductor; viaje_actual: { id: number; estado: EstadoViaje } | null };
}) {
  const state = CONNECTION_STATES[driver.conexion];
  return (
    <>
      <Badge tone={state.tone}>{state.label}</Badge>
      {driver.viaje_actual && (
        <span className="tabla__secundario">
          Viaje #{driver.viaje_actual.id} · {labelOf(TRIP_STATES, driver.viaje_actual.estado).toLowerCase()}
        </span>
      )}
    </>
  );
}

interface Rated {
  calificacion: number;
  total_calificaciones: number;
}

/** "4,8 de 5", or that there is none yet. */
export const rating = (driver: Rated) =>
  driver.total_calificaciones === 0 ? "Sin calificar" : `${number(Math.round(driver.calificacion * 10) / 10)} de 5`;

/** How many ratings that is. */
export const ratings = (driver: Rated) =>
  driver.total_calificaciones === 0 ? "Aún sin calificaciones" : counted(driver.total_calificaciones, "calificación", "calificaciones");

export const rate = (value: number) => percent(value);

/** The documents that expired or expire within 30 days, each with its date; "Al día" when none. */
export function DueDocuments({
  documents,
}: {
  documents: readonly { documento: DocumentoConVencimiento; vence: string; vencido: boolean }[];
}) {
  if (documents.length === 0) return <>Al día</>;
  return (
    <ul className="lista-etiquetas">
      {documents.map((document) => (
        <li key={document.documento}>
          <Badge tone={document.vencido ? "peligro" : "alerta"}>
            {`${DUE_DOCUMENTS[document.documento]} ${document.vencido ? "venció" : "vence"} ${date(document.vence)}`}
          </Badge>
        </li>
      ))}
    </ul>
  );
}
