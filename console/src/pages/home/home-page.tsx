import { useMemo, useState } from "react";
import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Link } from "../../app/router";
import { SelectField } from "../../components/fields";
import { Loading, Notice } from "../../components/notice";
import { PageHeader } from "../../components/page-header";
import { StatCard } from "../../components/stat-card";
import { bogotaDay, dateTime, number, pesos } from "../../format";
import { EstadisticasInicioDocument } from "../../gql/graphql";
import { DriversOnlineChart, MoneySeriesChart, SharesChart, SignUpsChart, TripsSeriesChart, tripStateCounts } from "./home-charts";

const PERIODS = [
  { value: "7", label: "Últimos 7 días" },
  { value: "30", label: "Últimos 30 días" },
];

export function HomePage() {
  const [days, setDays] = useState("7");
  const variables = useMemo(() => ({ desde: bogotaDay(1 - Number(days)), hasta: bogotaDay() }), [days]);
  const { data: stats, error, loading } = useQuery(EstadisticasInicioDocument, variables, (data) => success(data.platformStats));

  const accounts = useMemo(
    () =>
      stats
        ? [
            { label: "Pasajeros", value: stats.usuarios.pasajeros },
            { label: "Conductores", value: stats.usuarios.conductores },
            { label: "Empresas", value: stats.usuarios.empresas },
            { label: "Administradores", value: stats.usuarios.administradores },
          ]
        : [],
    [stats],
  );
  const tripStates = useMemo(() => tripStateCounts(stats?.periodo?.viajes_por_estado ?? []), [stats]);

  return (
    <>
      <PageHeader title="Inicio" description={stats ? `Cifras al ${dateTime(stats.generado_en)}` : "Las cifras de la plataforma"}>
        <SelectField label="Periodo" options={PERIODS} value={days} onChange={(event) => setDays(event.target.value)} />
      </PageHeader>
      <Notice kind="error">{error}</Notice>
      {!stats && loading && <Loading />}
      {stats && (
        <>
          <section className="cifras" aria-label="Cifras principales">
            <StatCard
              name="Usuarios"
              value={number(stats.usuarios.total)}
              detail={`${number(stats.usuarios.activos)} activos · ${stats.usuarios.registros_hoy} nuevos hoy`}
            />
            <StatCard
              name="Conductores en línea"
              value={number(stats.conductores.en_linea)}
              detail={`${stats.conductores.disponibles} libres · ${stats.conductores.en_viaje} en viaje`}
            />
            <StatCard
              name="Solicitudes por revisar"
              value={number(stats.conductores.en_revision)}
              detail={<Link to="conductores">Ir a la revisión</Link>}
            />
            <StatCard
              name="Viajes activos"
              value={number(stats.viajes.activos)}
              detail={`${number(stats.viajes.hoy)} pedidos hoy · ${number(stats.viajes.total)} en total`}
            />
          </section>
          <section className="cifras" aria-label="Ingresos y periodo">
            <StatCard
              name="Cobrado hoy"
              value={pesos(stats.ingresos.hoy.bruto)}
              detail={`Comisión ${pesos(stats.ingresos.hoy.comision)}`}
            />
            <StatCard
              name="Cobrado este mes"
              value={pesos(stats.ingresos.mes.bruto)}
              detail={`Comisión ${pesos(stats.ingresos.mes.comision)}`}
            />
            {stats.periodo && (
              <>
                <StatCard
                  name="Cobrado en el periodo"
                  value={pesos(stats.periodo.ingresos.bruto)}
                  detail={`Comisión ${pesos(stats.periodo.ingresos.comision)} · neto ${pesos(stats.periodo.ingresos.neto)}`}
                />
                <StatCard
                  name="Viajes en el periodo"
                  value={number(stats.periodo.viajes)}
                  detail={`${number(stats.periodo.ingresos.viajes_completados)} completados · ${number(stats.periodo.registros)} registros`}
                />
              </>
            )}
          </section>
          <div className="columnas">
            <section className="tarjeta">
              <h2>Viajes {stats.serie.intervalo === "hora" ? "por hora" : "por día"}</h2>
              <TripsSeriesChart interval={stats.serie.intervalo} points={stats.serie.puntos} />
            </section>
            <section className="tarjeta">
              <h2>Dinero {stats.serie.intervalo === "hora" ? "por hora" : "por día"}</h2>
              <MoneySeriesChart interval={stats.serie.intervalo} points={stats.serie.puntos} />
            </section>
            <section className="tarjeta">
              <h2>Registros por día</h2>
              <SignUpsChart days={stats.usuarios.registros_por_dia} />
            </section>
            <section className="tarjeta">
              <h2>Viajes del periodo por estado</h2>
              {tripStates.some((state) => state.value > 0) ? (
                <SharesChart counts={tripStates} title="Viajes por estado" />
              ) : (
                <p>No se pidieron viajes en el periodo.</p>
              )}
            </section>
            <section className="tarjeta">
              <h2>Conductores en línea por vehículo</h2>
              <DriversOnlineChart types={stats.conductores.por_tipo_vehiculo} />
            </section>
            <section className="tarjeta">
              <h2>Cuentas por tipo</h2>
              <SharesChart counts={accounts} title="Cuentas por tipo" />
            </section>
          </div>
          <section className="tarjeta">
            <div className="tarjeta__cabecera">
              <h2>Actividad reciente de administradores</h2>
              <Link to="auditoria">Ver auditoría</Link>
            </div>
            {stats.actividad_reciente.length === 0 ? (
              <p>Sin acciones registradas.</p>
            ) : (
              <ul className="actividad">
                {stats.actividad_reciente.map((entry) => (
                  <li key={entry.id}>
                    <span>{entry.descripcion}</span>
                    <span className="tabla__secundario">
                      {entry.administrador ? `${entry.administrador.nombre} ${entry.administrador.apellido}` : "Llamada heredada"} ·{" "}
                      {dateTime(entry.creado_en)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}
