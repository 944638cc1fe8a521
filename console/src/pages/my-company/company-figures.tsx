import { useId, useMemo } from "react";
import { StatCard } from "../../components/stat-card";
import { counted, number, pesos } from "../../format";
import type { CifrasPeriodoFragment, EstadoViaje, IntervaloSerie } from "../../gql/graphql";
import { MoneySeriesChart, SharesChart, TripsSeriesChart, tripStateCounts } from "../home/home-charts";

/** What a company's trips left in a span of time, as companyFigures tells it. */
type CompanyPeriod = CifrasPeriodoFragment;

const inState = (period: CompanyPeriod, estado: EstadoViaje) =>
  period.viajes_por_estado.find((state) => state.estado === estado)?.cantidad ?? 0;

/**
 * A span's figures (today, this month): the trips its drivers took, what the completed ones were
 * charged, the commission, the company's share of it and what the drivers earned.
 */
export function PeriodFigures({ label, period, heading: Heading = "h2" }: { label: string; period: CompanyPeriod; heading?: "h2" | "h3" }) {
  const { ingresos } = period;
  const id = useId();
  return (
    <section className="grupo-cifras" aria-labelledby={id}>
      <Heading id={id}>{label}</Heading>
      <div className="cifras">
        <StatCard
          name="Viajes"
          value={number(period.viajes)}
          detail={`${counted(inState(period, "completado"), "completado", "completados")} · ${counted(inState(period, "cancelado"), "cancelado", "cancelados")}`}
        />
        <StatCard name="Cobrado" value={pesos(ingresos.bruto)} detail={`Comisión ${pesos(ingresos.comision)}`} />
        <StatCard
          name="Parte de la empresa"
          value={pesos(ingresos.comision_empresa)}
          detail={`De ${counted(ingresos.viajes_completados, "viaje completado", "viajes completados")}`}
        />
        <StatCard name="Neto de los conductores" value={pesos(ingresos.neto)} detail="Lo que ganaron, sin las comisiones" />
      </div>
    </section>
  );
}

interface Figures {
  periodo: CompanyPeriod | null;
  serie: {
    intervalo: IntervaloSerie;
    puntos: readonly {
      inicio: string;
      viajes: number;
      completados: number;
      cancelados: number;
      bruto: number;
      comision: number;
      comision_empresa: number;
    }[];
  };
}

/** A company's charts over the chosen period: its trips, its money and its trips by state. */
export function CompanyCharts({ figures }: { figures: Figures }) {
  const { intervalo, puntos } = figures.serie;
  const states = useMemo(() => tripStateCounts(figures.periodo?.viajes_por_estado ?? []), [figures]);
  const per = intervalo === "hora" ? "por hora" : "por día";
  return (
    <div className="columnas">
      <section className="tarjeta">
        <h2>Viajes {per}</h2>
        <TripsSeriesChart interval={intervalo} points={puntos} />
      </section>
      <section className="tarjeta">
        <h2>Dinero {per}</h2>
        <MoneySeriesChart interval={intervalo} points={puntos} />
      </section>
      <section className="tarjeta">
        <h2>Viajes del periodo por estado</h2>
        {states.some((state) => state.value > 0) ? (
          <SharesChart counts={states} title="Viajes por estado" />
        ) : (
          <p>Tus conductores no tomaron viajes en el periodo.</p>
        )}
      </section>
    </div>
  );
}
