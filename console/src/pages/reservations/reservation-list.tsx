import { type ReactNode, useState } from "react";
import type { QueryState } from "../../api/hooks";
import { Link } from "../../app/router";
import { Badge } from "../../components/badge";
import { type Column, DataTable } from "../../components/data-table";
import { SelectField } from "../../components/fields";
import { Loading, Notice } from "../../components/notice";
import { PageHeader } from "../../components/page-header";
import { clock, counted, longDay, pesos, shortHour } from "../../format";
import type { EstadoReserva, FilaReservaFragment } from "../../gql/graphql";
import { labelOf, optionsOf, RESERVATION_STATES, SERVICE_TYPES } from "../../labels";

export type Reservation = FilaReservaFragment;

/** The zone of a pickup the gazetteer placed in no municipality. */
const NO_ZONE = "Sin zona";

const zoneOf = (booking: Reservation) => booking.zona ?? NO_ZONE;

const HOUR_MS = 3_600_000;

/**
 * The reservations by the hour of their pickup, soonest first. Bogotá keeps UTC−5 all year, so
 * its hours start on whole UTC hours.
 */
function byHour(rows: readonly Reservation[]): { start: string; rows: Reservation[] }[] {
  const hours = new Map<number, Reservation[]>();
  for (const row of rows) {
    const start = Math.floor(Date.parse(row.fecha_programada) / HOUR_MS) * HOUR_MS;
    hours.set(start, [...(hours.get(start) ?? []), row]);
  }
  return [...hours].sort(([a], [b]) => a - b).map(([start, listed]) => ({ start: new Date(start).toISOString(), rows: listed }));
}

/** Each zone with how many of `rows` it has, the busiest first. */
function zoneCounts(rows: readonly Reservation[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(zoneOf(row), (counts.get(zoneOf(row)) ?? 0) + 1);
  return [...counts].sort(([a, m], [b, n]) => n - m || a.localeCompare(b, "es"));
}

/** The state a list asks the API for (empty: all), and the zone it shows (empty: all). */
export function useReservationFilters() {
  const [estado, setEstado] = useState("");
  const [zona, setZona] = useState("");
  return { estado, setEstado, zona, setZona, variables: { estado: (estado || undefined) as EstadoReserva | undefined } };
}

type Filters = ReturnType<typeof useReservationFilters>;

function columns(action?: (booking: Reservation) => ReactNode): Column<Reservation>[] {
  return [
    {
      header: "Hora",
      kind: "clave",
      cell: (booking) => (
        <>
          {clock(booking.fecha_programada)}
          <span className="tabla__secundario">Reserva #{booking.id}</span>
        </>
      ),
    },
    { header: "Zona", cell: zoneOf },
    {
      header: "Recorrido",
      cell: (booking) => (
        <>
          {booking.origen.direccion}
          <span className="tabla__secundario">→ {booking.destino.direccion}</span>
        </>
      ),
    },
    { header: "Servicio", cell: (booking) => labelOf(SERVICE_TYPES, booking.tipo_servicio) },
    { header: "Precio", kind: "numero", cell: (booking) => pesos(booking.precio_estimado) },
    {
      header: "Conductor",
      cell: (booking) =>
        booking.conductor_id ? (
          <Link to={`conductores/${booking.conductor_id}`}>{booking.conductor_nombre ?? `#${booking.conductor_id}`}</Link>
        ) : (
          "Sin conductor"
        ),
    },
    {
      header: "Estado",
      cell: (booking) => (
        <>
          <Badge tone={RESERVATION_STATES[booking.estado].tone}>{RESERVATION_STATES[booking.estado].label}</Badge>
          {booking.motivo_cancelacion && <span className="tabla__secundario">{booking.motivo_cancelacion}</span>}
          {booking.viaje_id && <span className="tabla__secundario">Viaje #{booking.viaje_id}</span>}
        </>
      ),
    },
    ...(action ? [{ header: "Acciones", kind: "acciones" as const, cell: action }] : []),
  ];
}

/** One hour's reservations: the hour as the heading, how many and where, and their table. */
function HourGroup({ start, rows, action }: { start: string; rows: Reservation[]; action?: (booking: Reservation) => ReactNode }) {
  const day = longDay(start);
  const title = `${day.charAt(0).toUpperCase()}${day.slice(1)} · ${shortHour(start)}`;
  const id = `reservas-${Date.parse(start)}`;
  const zones = zoneCounts(rows)
    .map(([zone, count]) => `${zone} ${count}`)
    .join(" · ");
  return (
    <section className="tarjeta" aria-labelledby={id}>
      <div className="tarjeta__cabecera">
        <h2 id={id}>{title}</h2>
        <span className="tabla__secundario">
          {counted(rows.length, "reserva", "reservas")} · {zones}
        </span>
      </div>
      <DataTable caption={`Reservas de ${title}`} columns={columns(action)} rows={rows} rowKey={(booking) => booking.id} />
    </section>
  );
}

/**
 * A page of reservations by hour of pickup, filtered by state (asked of the API) and by zone (among
 * those it answered), each zone's count beside its name; `action` adds a column of what can be done
 * to one. Reservations change as their time comes, without a feed to follow: "Actualizar" reads them again.
 */
export function ReservationList({
  description,
  query,
  filters,
  empty,
  done,
  action,
}: {
  description: string;
  query: QueryState<readonly Reservation[]>;
  filters: Filters;
  empty: string;
  done?: string | null;
  action?: (booking: Reservation) => ReactNode;
}) {
  const all = query.data ?? [];
  const counts = zoneCounts(all);
  // The zone chosen stays offered when a new answer has none of it, so the choice can be undone.
  const zones = filters.zona && !counts.some(([zone]) => zone === filters.zona) ? [...counts, [filters.zona, 0] as const] : counts;
  const shown = filters.zona ? all.filter((booking) => zoneOf(booking) === filters.zona) : all;
  const hours = byHour(shown);
  return (
    <>
      <PageHeader title="Reservas" description={description}>
        <button type="button" className="boton boton--secundario" onClick={query.reload} disabled={query.loading}>
          Actualizar
        </button>
      </PageHeader>
      <div className="filtros">
        <SelectField
          label="Estado"
          options={optionsOf(RESERVATION_STATES, "Todos")}
          value={filters.estado}
          onChange={(event) => filters.setEstado(event.target.value)}
        />
        <SelectField
          label="Zona"
          options={[{ value: "", label: "Todas" }, ...zones.map(([zone, count]) => ({ value: zone, label: `${zone} (${count})` }))]}
          value={filters.zona}
          onChange={(event) => filters.setZona(event.target.value)}
        />
      </div>
      <Notice kind="exito">{done}</Notice>
      <Notice kind="error">{query.error}</Notice>
      {!query.data && query.loading ? (
        <Loading />
      ) : hours.length === 0 ? (
        <p className="tarjeta tabla__vacia">{filters.estado || filters.zona ? "Ninguna reserva coincide con los filtros." : empty}</p>
      ) : (
        <div className="reservas" aria-busy={query.loading}>
          {hours.map((hour) => (
            <HourGroup key={hour.start} start={hour.start} rows={hour.rows} action={action} />
          ))}
        </div>
      )}
    </>
  );
}
