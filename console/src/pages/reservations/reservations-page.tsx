import { useState } from "react";
import { useMutation, useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { ReasonDialog } from "../../components/reason-dialog";
import { clock, longDay } from "../../format";
import { CancelarReservaDocument, ReservasDocument } from "../../gql/graphql";
import { type Reservation, ReservationList, useReservationFilters } from "./reservation-list";

const when = (booking: Reservation) => `${longDay(booking.fecha_programada)} a las ${clock(booking.fecha_programada)}`;

/**
 * Every reservation from now on, by hour of pickup, zone and state; an administrator cancels a
 * booked one with a reason, which its passenger is told and the audit log keeps.
 */
export function ReservationsPage() {
  const filters = useReservationFilters();
  const query = useQuery(ReservasDocument, filters.variables, (result) => success(result.reservations).data);
  const cancel = useMutation(CancelarReservaDocument, (data) => success(data.cancelReservation));
  const [cancelling, setCancelling] = useState<Reservation | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function close() {
    cancel.clearError();
    setCancelling(null);
  }

  async function confirm(motivo: string) {
    if (!cancelling) return;
    const cancelled = await cancel.run({ reserva_id: cancelling.id, motivo });
    if (!cancelled) return;
    setCancelling(null);
    setDone(`La reserva #${cancelled.id} quedó cancelada; su pasajero recibe el motivo.`);
    query.reload();
  }

  return (
    <>
      <ReservationList
        description="Los viajes reservados con recogida desde ahora, por hora y zona, con su conductor y su estado."
        query={query}
        filters={filters}
        empty="No hay reservas con recogida desde ahora."
        done={done}
        action={(booking) =>
          booking.estado === "programada" ? (
            <button
              type="button"
              className="boton boton--secundario boton--compacto"
              onClick={() => {
                setDone(null);
                setCancelling(booking);
              }}
            >
              Cancelar<span className="solo-lector"> la reserva {booking.id}</span>
            </button>
          ) : (
            "—"
          )
        }
      />
      <ReasonDialog
        open={cancelling !== null}
        title={cancelling ? `Cancelar la reserva #${cancelling.id}` : ""}
        message={
          cancelling
            ? `La reserva del ${when(cancelling)} se cancela sin cobrar nada, y su pasajero recibe el motivo en la app y por correo.`
            : ""
        }
        label="Motivo"
        confirm="Cancelar la reserva"
        cancelLabel="Volver"
        danger
        busy={cancel.running}
        error={cancel.error}
        onClose={close}
        onConfirm={confirm}
      />
    </>
  );
}
