import { useMemo } from "react";
import { ChartView, PALETTE } from "../../charts/chart-view";
import { number, pesos, shortDay, shortHour } from "../../format";
import type { IntervaloSerie } from "../../gql/graphql";
import { labelOf, TRIP_STATES, VEHICLE_TYPES } from "../../labels";

interface Count {
  label: string;
  value: number;
}

/** Sign-ups day by day. */
export function SignUpsChart({ days }: { days: readonly { fecha: string; cantidad: number }[] }) {
  const config = useMemo(
    () => ({
      type: "bar" as const,
      data: {
        labels: days.map((day) => shortDay(day.fecha)),
        datasets: [{ label: "Registros", data: days.map((day) => day.cantidad), backgroundColor: PALETTE[0] }],
      },
      options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    }),
    [days],
  );
  const total = days.reduce((sum, day) => sum + day.cantidad, 0);
  return <ChartView config={config} label={`Registros por día: ${number(total)} en ${days.length} días`} />;
}

interface Point {
  inicio: string;
  viajes: number;
  completados: number;
  cancelados: number;
  bruto: number;
  comision: number;
  /** A company's share of the commission, on a company's series. */
  comision_empresa?: number;
}

const pointLabel = (interval: IntervaloSerie) => (interval === "hora" ? shortHour : shortDay);

/** Trips requested, completed and cancelled per point of the series (a day, or an hour for a short range). */
export function TripsSeriesChart({ interval, points }: { interval: IntervaloSerie; points: readonly Point[] }) {
  const config = useMemo(
    () => ({
      type: "line" as const,
      data: {
        labels: points.map((point) => pointLabel(interval)(point.inicio)),
        datasets: [
          {
            label: "Pedidos",
            data: points.map((point) => point.viajes),
            borderColor: PALETTE[1],
            backgroundColor: PALETTE[1],
            tension: 0.3,
          },
          {
            label: "Completados",
            data: points.map((point) => point.completados),
            borderColor: PALETTE[0],
            backgroundColor: PALETTE[0],
            tension: 0.3,
          },
          {
            label: "Cancelados",
            data: points.map((point) => point.cancelados),
            borderColor: PALETTE[3],
            backgroundColor: PALETTE[3],
            tension: 0.3,
          },
        ],
      },
      options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    }),
    [interval, points],
  );
  const total = (key: "viajes" | "completados" | "cancelados") => number(points.reduce((sum, point) => sum + point[key], 0));
  return (
    <ChartView
      config={config}
      label={`Viajes en el periodo: ${total("viajes")} pedidos, ${total("completados")} completados, ${total("cancelados")} cancelados`}
    />
  );
}

/** What trips brought in and what the platform kept (and of it, a company's share, on its series), per point of the series. */
export function MoneySeriesChart({ interval, points }: { interval: IntervaloSerie; points: readonly Point[] }) {
  const shared = points.some((point) => point.comision_empresa !== undefined);
  const config = useMemo(
    () => ({
      type: "bar" as const,
      data: {
        labels: points.map((point) => pointLabel(interval)(point.inicio)),
        datasets: [
          { label: "Cobrado", data: points.map((point) => point.bruto), backgroundColor: PALETTE[1] },
          { label: "Comisión", data: points.map((point) => point.comision), backgroundColor: PALETTE[0] },
          ...(shared
            ? [{ label: "Parte de la empresa", data: points.map((point) => point.comision_empresa ?? 0), backgroundColor: PALETTE[2] }]
            : []),
        ],
      },
      options: {
        scales: { y: { beginAtZero: true, ticks: { precision: 0, callback: (value: string | number) => pesos(Number(value)) } } },
      },
    }),
    [interval, points, shared],
  );
  const total = (key: "bruto" | "comision" | "comision_empresa") => pesos(points.reduce((sum, point) => sum + (point[key] ?? 0), 0));
  const share = shared ? `, ${total("comision_empresa")} para la empresa` : "";
  return <ChartView config={config} label={`Dinero en el periodo: ${total("bruto")} cobrados, ${total("comision")} de comisión${share}`} />;
}

/** Shares of a whole (trips by state, accounts by type) as a doughnut. */
export function SharesChart({ counts, title }: { counts: Count[]; title: string }) {
  const config = useMemo(
    () => ({
      type: "doughnut" as const,
      data: {
        labels: counts.map((count) => count.label),
        datasets: [{ data: counts.map((count) => count.value), backgroundColor: PALETTE, borderWidth: 1 }],
      },
      options: { plugins: { legend: { position: "right" as const } } },
    }),
    [counts],
  );
  return <ChartView config={config} label={`${title}: ${counts.map((count) => `${count.label} ${number(count.value)}`).join(", ")}`} />;
}

export const tripStateCounts = (states: readonly { estado: string; cantidad: number }[]): Count[] =>
  states.map((state) => ({ label: labelOf(TRIP_STATES, state.estado), value: state.cantidad }));

/** Drivers online by vehicle type, free and on a trip stacked. */
export function DriversOnlineChart({ types }: { types: readonly { tipo_vehiculo: string; disponibles: number; en_viaje: number }[] }) {
  const config = useMemo(
    () => ({
      type: "bar" as const,
      data: {
        labels: types.map((type) => labelOf(VEHICLE_TYPES, type.tipo_vehiculo)),
        datasets: [
          { label: "Libres", data: types.map((type) => type.disponibles), backgroundColor: PALETTE[0] },
          { label: "En viaje", data: types.map((type) => type.en_viaje), backgroundColor: PALETTE[2] },
        ],
      },
      options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
    }),
    [types],
  );
  const summary = types.map(
    (type) => `${labelOf(VEHICLE_TYPES, type.tipo_vehiculo)}: ${type.disponibles} libres, ${type.en_viaje} en viaje`,
  );
  return <ChartView config={config} label={`Conductores en línea por tipo de vehículo. ${summary.join("; ")}`} />;
}
