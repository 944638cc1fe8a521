import { useMemo, useState } from "react";
import { useQuery } from "../../api/hooks";
import { type Success, success } from "../../api/result";
import { Link } from "../../app/router";
import { Badge } from "../../components/badge";
import { Facts } from "../../components/facts";
import { SelectField } from "../../components/fields";
import { Loading, Notice } from "../../components/notice";
import { PageHeader } from "../../components/page-header";
import { StatCard } from "../../components/stat-card";
import { bogotaDay, counted, dateTime, number, percent } from "../../format";
import {
  CifrasMiEmpresaDocument,
  type EstadoEmpresa,
  MiEmpresaDocument,
  type MiEmpresaQuery,
  ResumenMiEmpresaDocument,
} from "../../gql/graphql";
import { COMPANY_STATES } from "../../labels";
import { recordFacts } from "./company-facts";
import { CompanyCharts, PeriodFigures } from "./company-figures";

type Company = Success<MiEmpresaQuery["myCompany"]>;

/** What the company's state means for its managers: what they read first on their home page. */
const STANDING: Record<EstadoEmpresa, { title: string; text: string }> = {
  pendiente: {
    title: "Tu empresa está en revisión",
    text:
      "Un administrador de la plataforma revisará sus datos y te avisaremos por correo cuando la apruebe; desde entonces podrás " +
      "aceptar conductores e invitar a otros gestores. Mientras tanto solo puedes consultar esta página.",
  },
  rechazada: {
    title: "La solicitud de tu empresa fue rechazada",
    text: "Tu empresa no puede operar en la plataforma. Si tienes preguntas sobre el motivo, comunícate con la plataforma.",
  },
  suspendida: {
    title: "Tu empresa está suspendida",
    text:
      "Un administrador suspendió la empresa: mientras tanto no puede aceptar conductores ni invitar gestores, y solo puedes " +
      "consultar esta página. Comunícate con la plataforma para saber cómo reactivarla.",
  },
  inactiva: {
    title: "Tu empresa está inactiva",
    text: "La empresa no opera por ahora: no puede aceptar conductores ni invitar gestores, y solo puedes consultar esta página.",
  },
  activa: {
    title: "Tu empresa opera en la plataforma",
    text:
      "Sigue a tus conductores en el mapa, sus viajes y lo que dejan; responde a los que piden unirse, invita a otros y decide " +
      "quién más gestiona la empresa.",
  },
};

const PERIODS = [
  { value: "7", label: "Últimos 7 días" },
  { value: "30", label: "Últimos 30 días" },
];

/** A manager's home: their company's state, explained, and once it operates, its figures and charts. */
export function MyCompanyPage() {
  const { data: company, error, loading } = useQuery(MiEmpresaDocument, {}, (result) => success(result.myCompany));
  const [days, setDays] = useState("7");
  const state = company && COMPANY_STATES[company.estado];
  const standing = company && STANDING[company.estado];
  const operating = company?.estado === "activa";

  return (
    <>
      <PageHeader title="Mi empresa" description={company ? `${company.nombre} · NIT ${company.nit}` : undefined}>
        {operating && <SelectField label="Periodo" options={PERIODS} value={days} onChange={(event) => setDays(event.target.value)} />}
      </PageHeader>
      <Notice kind="error">{error}</Notice>
      {!company && loading && <Loading />}
      {company && state && standing && (
        <>
          <section className={`tarjeta tarjeta--${state.tone}`} aria-labelledby="estado-empresa">
            <div className="tarjeta__cabecera">
              <h2 id="estado-empresa">{standing.title}</h2>
              <Badge tone={state.tone}>{state.label}</Badge>
            </div>
            {company.estado === "rechazada" && (
              <p>
                <strong>Motivo:</strong> {company.motivo_rechazo ?? "no se indicó"}
              </p>
            )}
            <p>{standing.text}</p>
          </section>
          {operating && (
            <>
              <Summary company={company} />
              <Figures days={Number(days)} />
            </>
          )}
          <section className="tarjeta">
            <h2>Datos de la empresa</h2>
            <Facts items={[["Nombre", company.nombre], ...recordFacts(company)]} />
          </section>
        </>
      )}
    </>
  );
}

/** An operating company's figures; a company under review or stopped may not read them. */
function Summary({ company }: { company: Company }) {
  const { data, error, loading } = useQuery(ResumenMiEmpresaDocument, {}, (result) => ({
    solicitudes: success(result.solicitudes).pagination.total,
    invitaciones: success(result.invitaciones).pagination.total,
    gestores: success(result.gestores).data.length,
  }));
  return (
    <>
      <Notice kind="error">{error}</Notice>
      {!data && loading && <Loading />}
      {data && (
        <section className="cifras" aria-label="Resumen de la empresa">
          <StatCard
            name="Conductores"
            value={number(company.conductores.length)}
            detail={
              <>
                Afiliados a tu empresa · <Link to="conductores">Ver</Link>
              </>
            }
          />
          <StatCard
            name="Solicitudes por responder"
            value={number(data.solicitudes)}
            detail={
              <>
                {counted(data.invitaciones, "invitación", "invitaciones")} sin respuesta · <Link to="solicitudes">Ver</Link>
              </>
            }
          />
          <StatCard name="Gestores" value={number(data.gestores)} detail={<Link to="gestores">Ver gestores</Link>} />
          <StatCard
            name="Parte de la comisión"
            value={percent(company.porcentaje_comision)}
            detail="De la comisión de la plataforma en sus viajes"
          />
        </section>
      )}
    </>
  );
}

/** The company's figures today and this month, and its charts over the chosen period. */
function Figures({ days }: { days: number }) {
  const variables = useMemo(() => ({ desde: bogotaDay(1 - days), hasta: bogotaDay() }), [days]);
  const { data: figures, error, loading } = useQuery(CifrasMiEmpresaDocument, variables, (result) => success(result.companyFigures));
  return (
    <>
      <Notice kind="error">{error}</Notice>
      {!figures && loading && <Loading />}
      {figures && (
        <>
          <PeriodFigures label="Hoy" period={figures.hoy} />
          <PeriodFigures label="Este mes" period={figures.mes} />
          <CompanyCharts figures={figures} />
          <p className="tabla__secundario">
            Cifras al {dateTime(figures.generado_en)}: los viajes cuentan el día en que se pidieron; el dinero, el día en que se
            completaron.
          </p>
        </>
      )}
    </>
  );
}
