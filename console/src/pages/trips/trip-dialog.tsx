import { useEffect, useRef, useState } from "react";
import { useMutation } from "../../api/hooks";
import { useSubscription } from "../../api/live";
import { success } from "../../api/result";
import { Badge } from "../../components/badge";
import { Dialog } from "../../components/dialog";
import { LiveBadge } from "../../components/live-badge";
import { Notice } from "../../components/notice";
import { ReasonDialog } from "../../components/reason-dialog";
import { dateTime, number, pesos } from "../../format";
import { CancelarViajeDocument, ViajeEnVivoDocument } from "../../gql/graphql";
import { labelOf, PAYMENT_METHODS, SERVICE_TYPES, TRIP_STATES } from "../../labels";
import { TripHistory } from "./trip-history";
import { TripMap } from "./trip-map";
import { isActive, TRIP_TONES, type Trip } from "./trip-states";

const CANCELLED_BY: Record<string, string> = { pasajero: "el pasajero", conductor: "el conductor", admin: "un administrador" };

const person = (who: Trip["pasajero"]) => (who ? `${who.nombre} ${who.apellido} · ${who.telefono}` : "—");

/** Each step of a trip with the date it has, in order; the ones it never reached (or the list does not carry) are left out. */
const STEPS = [
  ["Pedido", "fecha_solicitud"],
  ["Aceptado", "fecha_aceptacion"],
  ["Conductor en camino", "fecha_en_ruta"],
  ["Inició", "fecha_inicio"],
  ["Terminó", "fecha_fin"],
  ["Cancelado", "fecha_cancelacion"],
] as const;

type Steps = Partial<Record<(typeof STEPS)[number][1], string | null>>;

export const stepsOf = (trip: Steps): [string, string][] =>
  STEPS.filter(([, field]) => trip[field]).map(([label, field]): [string, string] => [label, dateTime(trip[field])]);

/** Why it was cancelled, and by whom when the API knows. */
export function cancellation(trip: Pick<Trip, "motivo_cancelacion" | "cancelado_por">): [string, string][] {
  if (!trip.motivo_cancelacion) return [];
  const who = trip.cancelado_por && (CANCELLED_BY[trip.cancelado_por] ?? trip.cancelado_por);
  return [["Cancelación", who ? `${trip.motivo_cancelacion} (lo canceló ${who})` : trip.motivo_cancelacion]];
}

const share = (amount: number | null, percent: number | null) =>
  amount === null ? `${number(percent ?? 0)} % al completarse` : `${pesos(amount)} (${number(percent ?? 0)} %)`;

/** Where the fare went: each commission with the percentage the trip was priced with, and what the driver earned. */
function fareSplit(trip: Trip): [string, string][] {
  return [
    ["Comisión de la plataforma", share(trip.comision_plataforma, trip.porcentaje_comision)],
    ["Comisión del método de pago", share(trip.comision_metodo_pago, trip.porcentaje_comision_metodo)],
    ["Ganancia del conductor", trip.ganancia_conductor === null ? "—" : pesos(trip.ganancia_conductor)],
  ];
}

function factsOf(trip: Trip): [string, string][] {
  return [
    ["Servicio", labelOf(SERVICE_TYPES, trip.tipo_servicio)],
    ["Pasajero", person(trip.pasajero)],
    ["Conductor", person(trip.conductor)],
    ["Vehículo", trip.vehiculo ? [trip.vehiculo.placa, trip.vehiculo.marca, trip.vehiculo.modelo].filter(Boolean).join(" ") : "—"],
    ["Origen", trip.origen.direccion],
    ["Destino", trip.destino.direccion],
    ["Distancia", `${number(trip.distancia_km)} km · unos ${trip.duracion_estimada_minutos} min`],
    ...stepsOf(trip),
    ["Precio", trip.precio_final === null ? `${pesos(trip.precio_estimado)} estimado` : pesos(trip.precio_final)],
    ["Demanda", `×${number(trip.multiplicador_demanda)}`],
    ["Pago", labelOf(PAYMENT_METHODS, trip.metodo_pago)],
    ...fareSplit(trip),
    ["Calificaciones", `al conductor ${trip.calificacion_conductor ?? "—"} · al pasajero ${trip.calificacion_usuario ?? "—"}`],
    ...cancellation(trip),
  ];
}

/**
 * Everything about one trip, with its route on the map; followed live until it ends, and an active
 * one can be cancelled with a reason.
 */
export function TripDialog({ trip, onClose, onCancelled }: { trip: Trip | null; onClose: () => void; onCancelled: () => void }) {
  // What the API sent since the dialog opened (changes, the cancellation) replaces the list's copy.
  const [latest, setLatest] = useState<Trip | null>(null);
  const shown = trip && latest?.id === trip.id ? latest : trip;
  const live = shown !== null && isActive(shown);
  const status = useSubscription(ViajeEnVivoDocument, live ? { trip_id: shown.id } : null, (data) => setLatest(data.tripUpdated));
  const cancel = useMutation(CancelarViajeDocument, (data) => success(data.cancelTrip));
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const top = useRef<HTMLParagraphElement>(null);
  // Once cancelled, the button that asked is gone and focus with it: it goes to the dialog's Cerrar.
  useEffect(() => {
    if (done) top.current?.closest("dialog")?.querySelector<HTMLElement>(".dialogo__cancelar")?.focus();
  }, [done]);

  function close() {
    setLatest(null);
    setDone(null);
    onClose();
  }

  function closeAsking() {
    cancel.clearError();
    setAsking(false);
  }

  async function confirmCancel(motivo: string) {
    if (!shown) return;
    const cancelled = await cancel.run({ trip_id: shown.id, motivo });
    if (!cancelled) return;
    setAsking(false);
    setLatest(cancelled);
    setDone(`El viaje #${cancelled.id} quedó cancelado.`);
    onCancelled();
  }

  return (
    <>
      <Dialog
        open={shown !== null}
        title={shown ? `Viaje #${shown.id}` : ""}
        onClose={close}
        actions={
          live && (
            <button type="button" className="boton boton--peligro" onClick={() => setAsking(true)}>
              Cancelar viaje
            </button>
          )
        }
        cancelLabel="Cerrar"
        wide
      >
        {shown && (
          <>
            <Notice kind="exito">{done}</Notice>
            <p ref={top} className="estado-viaje">
              <Badge tone={TRIP_TONES[shown.estado]}>{labelOf(TRIP_STATES, shown.estado)}</Badge>
              {live && <LiveBadge status={status} />}
            </p>
            <TripMap trip={shown} />
            <dl className="definiciones">
              {factsOf(shown).map(([label, value]) => (
                <div key={label} className="definiciones__fila">
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            <TripHistory tripId={shown.id} />
          </>
        )}
      </Dialog>
      <ReasonDialog
        open={asking}
        title="Cancelar viaje"
        message={`El viaje #${shown?.id} termina ahora para el pasajero${shown?.conductor ? " y el conductor, que queda libre para otro viaje" : ""}. El motivo queda en la auditoría.`}
        label="Motivo de la cancelación"
        confirm="Cancelar viaje"
        cancelLabel="Volver"
        danger
        busy={cancel.running}
        error={cancel.error}
        onClose={closeAsking}
        onConfirm={confirmCancel}
      />
    </>
  );
}
