import { SelectField, TextField } from "../../components/fields";
import { useList } from "../../components/use-list";
import type { EstadoViaje, OrdenViajes, TipoServicio } from "../../gql/graphql";
import { optionsOf, SERVICE_TYPES, TRIP_STATES } from "../../labels";
import { ACTIVE } from "./trip-states";

const STATES = [{ value: "", label: "Todos" }, { value: "activos", label: "Activos (sin terminar)" }, ...optionsOf(TRIP_STATES)];

/** A trip list's filters, newest first, and the variables they send: the administrators' and a company's lists alike. */
export function useTripFilters() {
  const list = useList({
    filters: { estado: "", servicio: "", desde: "", hasta: "" },
    sort: "fecha_solicitud" as OrdenViajes,
    order: "desc",
  });
  const { filters } = list;
  const variables = {
    page: list.page,
    per_page: 20,
    search: list.sentSearch,
    estados: filters.estado === "activos" ? ACTIVE : filters.estado ? [filters.estado as EstadoViaje] : undefined,
    tipo_servicio: (filters.servicio || undefined) as TipoServicio | undefined,
    desde: filters.desde || undefined,
    hasta: filters.hasta || undefined,
    sort: list.sorting.sort,
    order: list.sorting.order,
  };
  return { list, variables };
}

/** The filter fields of a trip list. */
export function TripFilterFields({ list }: { list: ReturnType<typeof useTripFilters>["list"] }) {
  return (
    <>
      <SelectField label="Estado" options={STATES} {...list.field("estado")} />
      <SelectField label="Servicio" options={optionsOf(SERVICE_TYPES, "Todos")} {...list.field("servicio")} />
      <TextField label="Desde" type="date" {...list.field("desde")} />
      <TextField label="Hasta" type="date" {...list.field("hasta")} />
    </>
  );
}
