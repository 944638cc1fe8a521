import { Badge } from "../../components/badge";
import { Dialog } from "../../components/dialog";
import { Facts } from "../../components/facts";
import { number, percent, pesos } from "../../format";
import type { FilaViajeEmpresaFragment } from "../../gql/graphql";
import { labelOf, PAYMENT_METHODS, SERVICE_TYPES, TRIP_STATES } from "../../labels";
import { cancellation, stepsOf } from "../trips/trip-dialog";
import { TripMap } from "../trips/trip-map";
import { TRIP_TONES } from "../trips/trip-states";

export type CompanyTrip = FilaViajeEmpresaFragment;

const money = (amount: number | null) => (amount === null ? "Al completarse" : pesos(amount));

/** Where the fare went: the platform's commission, the company's share of it, the payment method's, and what the driver earned. */
function fareSplit(trip: CompanyTrip): [string, string][] {
  const share = trip.porcentaje_empresa === null ? "" : ` (${percent(trip.porcentaje_empresa)} de la comisión)`;
  return [
    ["Comisión de la plataforma", money(trip.comision_plataforma)],
    ["Parte de la empresa", `${money(trip.comision_empresa)}${share}`],
    ["Comisión del método de pago", money(trip.comision_metodo_pago)],
    ["Ganancia del conductor", money(trip.ganancia_conductor)],
  ];
}

/** One of the company's trips as its managers see it: its route, its people (the passenger by first name), its dates and its money. */
export function CompanyTripDialog({ trip, onClose }: { trip: CompanyTrip | null; onClose: () => void }) {
  return (
    <Dialog open={trip !== null} title={trip ? `Viaje #${trip.id}` : ""} onClose={onClose} cancelLabel="Cerrar" actions={null} wide>
      {trip && (
        <>
          <p className="estado-viaje">
            <Badge tone={TRIP_TONES[trip.estado]}>{labelOf(TRIP_STATES, trip.estado)}</Badge>
          </p>
          <TripMap trip={trip} followDriver={false} />
          <Facts
            items={[
              ["Servicio", labelOf(SERVICE_TYPES, trip.tipo_servicio)],
              ["Pasajero", trip.pasajero_nombre],
              ["Conductor", trip.conductor_nombre],
              ["Origen", trip.origen.direccion],
              ["Destino", trip.destino.direccion],
              ["Distancia", `${number(trip.distancia_km)} km · unos ${trip.duracion_estimada_minutos} min`],
              ...stepsOf(trip),
              ["Precio", trip.precio_final === null ? `${pesos(trip.precio_estimado)} estimado` : pesos(trip.precio_final)],
              ["Pago", labelOf(PAYMENT_METHODS, trip.metodo_pago)],
              ...fareSplit(trip),
              [
                "Calificación al conductor",
                trip.calificacion_conductor === null
                  ? null
                  : [`${trip.calificacion_conductor} de 5`, trip.comentario_conductor].filter(Boolean).join(": "),
              ],
              ...cancellation(trip),
            ]}
          />
        </>
      )}
    </Dialog>
  );
}
