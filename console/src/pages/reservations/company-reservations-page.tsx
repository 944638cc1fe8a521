import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { ReservasEmpresaDocument } from "../../gql/graphql";
import { ReservationList, useReservationFilters } from "./reservation-list";

/** A manager's reservations: those the company's drivers committed to, to read; nothing of the passenger. */
export function CompanyReservationsPage() {
  const filters = useReservationFilters();
  const query = useQuery(ReservasEmpresaDocument, filters.variables, (result) => success(result.companyReservations).data);
  return (
    <ReservationList
      description="Los viajes reservados que tomaron los conductores de tu empresa, por hora de recogida y zona."
      query={query}
      filters={filters}
      empty="Ningún conductor de tu empresa ha tomado reservas con recogida desde ahora."
    />
  );
}
