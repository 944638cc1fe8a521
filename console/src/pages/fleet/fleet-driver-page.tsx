import { useState } from "react";
import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Link } from "../../app/router";
import { DataTable } from "../../components/data-table";
import { Loading, Notice } from "../../components/notice";
import { PageHeader } from "../../components/page-header";
import { StatCard } from "../../components/stat-card";
import { counted, pesos } from "../../format";
import { ConductorDeEmpresaDocument, type GananciaDelConductorFragment } from "../../gql/graphql";
import { CONNECTION_STATES } from "../../labels";
import { type CompanyTrip, CompanyTripDialog } from "../company-trips/company-trip-dialog";
import { companyTripColumns } from "../company-trips/company-trips-page";
import { DocumentPhotos, DriverProfileCards } from "../driver/driver-profile";
import { DueDocuments, rate, rating, ratings } from "./fleet-parts";

/** What a driver's completed trips for the company left in a span: what they earned, and the company's share. */
function EarningsCard({ name, income }: { name: string; income: GananciaDelConductorFragment }) {
  return (
    <StatCard
      name={name}
      value={pesos(income.neto)}
      detail={`${counted(income.viajes_completados, "viaje", "viajes")} · cobrado ${pesos(income.bruto)} · empresa ${pesos(income.comision_empresa)}`}
    />
  );
}

/**
 * One of the company's drivers for its managers: where they are and how they work, what their
 * trips for the company earned, their profile, licence and vehicle, their document photos and
 * their latest trips.
 */
export function FleetDriverPage({ driverId }: { driverId: number }) {
  const { data, error, loading } = useQuery(ConductorDeEmpresaDocument, { conductor_id: driverId }, (result) =>
    success(result.companyDriver),
  );
  const [open, setOpen] = useState<CompanyTrip | null>(null);
  const driver = data?.conductor;
  const name = driver ? `${driver.nombre} ${driver.apellido}`.trim() : "Conductor";

  return (
    <>
      <p>
        <Link to="conductores">← Volver a los conductores</Link>
      </p>
      <PageHeader title={name} description={driver ? `${driver.telefono} · ${driver.email}` : undefined} />
      <Notice kind="error">{error}</Notice>
      {!data && loading && <Loading />}
      {data && driver && (
        <>
          <section className="cifras" aria-label="Cómo trabaja">
            <StatCard
              name="Ahora"
              value={CONNECTION_STATES[driver.conexion].label}
              detail={
                driver.viaje_actual
                  ? `Viaje #${driver.viaje_actual.id}: ${driver.viaje_actual.origen_direccion} → ${driver.viaje_actual.destino_direccion}`
                  : "Sin viaje en curso"
              }
            />
            <StatCard name="Calificación" value={rating(driver)} detail={ratings(driver)} />
            <StatCard
              name="Aceptación"
              value={rate(driver.tasa_aceptacion)}
              detail={`De las solicitudes que se le mostraron · completa ${rate(driver.tasa_completacion)} de los que toma`}
            />
            <StatCard name="Deuda" value={pesos(driver.deuda)} detail="Comisiones de los viajes que cobró en efectivo" />
          </section>
          <section className="cifras" aria-label="Ganancias">
            <EarningsCard name="Ganó hoy" income={data.ganancias.hoy} />
            <EarningsCard name="Ganó este mes" income={data.ganancias.mes} />
            <EarningsCard name="Ganó en total" income={data.ganancias.total} />
            <StatCard
              name="Dejó a la empresa"
              value={pesos(data.ganancias.total.comision_empresa)}
              detail={`Su parte de la comisión en total · ${pesos(data.ganancias.mes.comision_empresa)} este mes`}
            />
          </section>
          {driver.documentos.length > 0 && (
            <Notice kind="info">
              Documentos por atender: <DueDocuments documents={driver.documentos} />
            </Notice>
          )}
          <DriverProfileCards profile={data.perfil} />
          <section className="tarjeta">
            <h2>Sus últimos viajes</h2>
            <DataTable
              caption="Últimos viajes del conductor"
              columns={companyTripColumns(setOpen, { withDriver: false })}
              rows={data.viajes_recientes}
              rowKey={(trip) => trip.id}
              empty="Aún no ha hecho viajes para tu empresa."
            />
          </section>
          <DocumentPhotos photos={data.fotos} />
        </>
      )}
      <CompanyTripDialog trip={open} onClose={() => setOpen(null)} />
    </>
  );
}
