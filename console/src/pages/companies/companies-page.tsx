import { useState } from "react";
import { useMutation, useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Badge } from "../../components/badge";
import { ConfirmDialog } from "../../components/confirm-dialog";
import type { Column } from "../../components/data-table";
import { SelectField } from "../../components/fields";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { ReasonDialog } from "../../components/reason-dialog";
import { Tabs } from "../../components/tabs";
import { useList } from "../../components/use-list";
import { date, number, percent } from "../../format";
import {
  AprobarEmpresaDocument,
  EliminarEmpresaDocument,
  EmpresasDocument,
  type EmpresasQuery,
  type EstadoEmpresa,
  type OrdenEmpresas,
  RechazarEmpresaDocument,
} from "../../gql/graphql";
import { COMPANY_STATES, optionsOf } from "../../labels";
import { CompanyDialog, type CompanyForm } from "./company-dialog";
import { CompanyFiguresDialog } from "./company-figures-dialog";
import { ShareDialog } from "./share-dialog";

type Page = Extract<EmpresasQuery["companies"], { __typename: "PaginaEmpresas" }>;
type Row = Page["items"][number];

const formOf = (company: Row): CompanyForm & { id: number } => ({
  id: company.id,
  nombre: company.nombre,
  nit: company.nit,
  email: company.email ?? "",
  telefono: company.telefono ?? "",
  direccion: company.direccion ?? "",
  estado: company.estado,
});

/** The two views of the list: the companies waiting for review, oldest first, and all of them. */
const QUEUE = "revision";
const VIEW_SORTING: Record<string, { sort: OrdenEmpresas; order: "asc" | "desc" }> = {
  [QUEUE]: { sort: "creado_en", order: "asc" },
  todas: { sort: "nombre", order: "asc" },
};

type Action = "aprobar" | "rechazar" | "parte" | "cifras" | "eliminar";

const BUTTONS = { primario: "boton", secundario: "boton boton--secundario", peligro: "boton boton--peligro" };

export function CompaniesPage() {
  const list = useList({ filters: { vista: QUEUE, estado: "" }, ...VIEW_SORTING[QUEUE]! });
  const reviewing = list.filters.vista === QUEUE;
  const query = useQuery(
    EmpresasDocument,
    {
      page: list.page,
      per_page: 20,
      search: list.sentSearch,
      estado: reviewing ? "pendiente" : ((list.filters.estado || undefined) as EstadoEmpresa | undefined),
      sort: list.sorting.sort,
      order: list.sorting.order,
    },
    (result) => ({ ...success(result.companies), pendientes: success(result.pendientes).pagination.total }),
  );
  const approve = useMutation(AprobarEmpresaDocument, (result) => success(result.approveCompany));
  const refuse = useMutation(RechazarEmpresaDocument, (result) => success(result.refuseCompany));
  const remove = useMutation(EliminarEmpresaDocument, (result) => success(result.deleteCompany));
  const [editing, setEditing] = useState<"nueva" | (CompanyForm & { id: number }) | null>(null);
  const [acting, setActing] = useState<{ action: Action; company: Row } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function finished(message: string) {
    setEditing(null);
    setActing(null);
    setDone(message);
    query.reload();
  }

  function open(action: Action, company: Row) {
    setDone(null);
    for (const mutation of [approve, refuse, remove]) mutation.clearError();
    setActing({ action, company });
  }

  const target = acting?.company;
  const opened = (action: Action) => (acting?.action === action ? acting.company : null);
  const rowButton = (label: string, company: Row, onClick: () => void, kind: keyof typeof BUTTONS = "secundario") => (
    <button type="button" className={`${BUTTONS[kind]} boton--compacto`} onClick={onClick}>
      {label}
      <span className="solo-lector"> {company.nombre}</span>
    </button>
  );

  const name = (company: Row) => (
    <button type="button" className="boton-enlace tabla__principal" onClick={() => open("cifras", company)}>
      {company.nombre}
    </button>
  );
  const contact = (company: Row) => {
    const text = [company.email, company.telefono].filter(Boolean).join(" · ");
    return text && <span className="tabla__secundario">{text}</span>;
  };

  const column = {
    empresa: {
      header: "Empresa",
      sort: "nombre",
      cell: (company) => (
        <>
          {name(company)}
          {contact(company)}
        </>
      ),
    },
    nit: { header: "NIT", sort: "nit", kind: "clave", cell: (company) => company.nit },
    estado: {
      header: "Estado",
      sort: "estado",
      cell: (company) => (
        <>
          <Badge tone={COMPANY_STATES[company.estado].tone}>{COMPANY_STATES[company.estado].label}</Badge>
          {company.motivo_rechazo && <span className="tabla__secundario">{company.motivo_rechazo}</span>}
        </>
      ),
    },
    conductores: { header: "Conductores", kind: "numero", cell: (company) => number(company.conductores.length) },
    comision: { header: "Comisión", kind: "numero", cell: (company) => percent(company.porcentaje_comision) },
    registro: { header: "Registro", sort: "creado_en", cell: (company) => date(company.creado_en) },
    acciones: {
      header: "Acciones",
      kind: "acciones",
      cell: (company) => (
        <>
          {company.estado === "pendiente" ? (
            <>
              {rowButton("Aprobar", company, () => open("aprobar", company), "primario")}
              {rowButton("Rechazar", company, () => open("rechazar", company), "peligro")}
            </>
          ) : (
            rowButton("Comisión", company, () => open("parte", company))
          )}
          {rowButton("Editar", company, () => {
            setDone(null);
            setEditing(formOf(company));
          })}
          {rowButton("Eliminar", company, () => open("eliminar", company), "peligro")}
        </>
      ),
    },
  } satisfies Record<string, Column<Row>>;
  // The queue, oldest first, needs only who asked and when (every one is pending, with no drivers or share yet): two columns that fit a phone.
  const applicant: Column<Row> = {
    header: "Empresa",
    cell: (company) => (
      <>
        {name(company)}
        <span className="tabla__secundario">
          NIT {company.nit} · se registró el {date(company.creado_en)}
        </span>
        {contact(company)}
      </>
    ),
  };
  const columns: Column<Row>[] = reviewing ? [applicant, column.acciones] : Object.values(column);

  return (
    <>
      <PageHeader title="Empresas" description="Empresas de transporte a las que se afilian conductores.">
        <button
          type="button"
          className="boton"
          onClick={() => {
            setDone(null);
            setEditing("nueva");
          }}
        >
          Nueva empresa
        </button>
      </PageHeader>
      <Tabs
        label="Empresas"
        value={list.filters.vista}
        onChange={(vista) => {
          list.setFilter("vista", vista);
          list.setSorting(VIEW_SORTING[vista]!);
        }}
        tabs={[
          { value: QUEUE, label: "Pendientes", count: query.data?.pendientes },
          { value: "todas", label: "Todas" },
        ]}
      >
        <PagedList
          caption={reviewing ? "Empresas por revisar" : "Empresas"}
          columns={columns}
          rowKey={(company) => company.id}
          empty={reviewing ? "No hay empresas esperando revisión." : "No hay empresas con estos filtros."}
          list={list}
          query={query}
          done={done}
          search="Nombre, NIT, correo o teléfono"
        >
          {!reviewing && <SelectField label="Estado" options={optionsOf(COMPANY_STATES, "Todas")} {...list.field("estado")} />}
        </PagedList>
      </Tabs>
      <CompanyDialog company={editing} onClose={() => setEditing(null)} onSaved={finished} />
      <CompanyFiguresDialog company={opened("cifras")} onClose={() => setActing(null)} />
      <ShareDialog company={opened("parte")} onClose={() => setActing(null)} onSaved={finished} />
      <ConfirmDialog
        open={acting?.action === "aprobar"}
        title="Aprobar empresa"
        message={`${target?.nombre ?? ""} (NIT ${target?.nit ?? ""}) podrá operar: sus gestores podrán aceptar conductores. Se les avisará por correo.`}
        confirm="Aprobar"
        busy={approve.running}
        error={approve.error}
        onClose={() => setActing(null)}
        onConfirm={async () =>
          target &&
          (await approve.run({ id: target.id })) &&
          finished(`Se aprobó la empresa ${target.nombre}; sus gestores fueron avisados.`)
        }
      />
      <ReasonDialog
        open={acting?.action === "rechazar"}
        title="Rechazar empresa"
        message={`${target?.nombre ?? ""} no podrá operar. Sus gestores verán el motivo.`}
        label="Motivo del rechazo"
        confirm="Rechazar"
        danger
        busy={refuse.running}
        error={refuse.error}
        onClose={() => setActing(null)}
        onConfirm={async (motivo) =>
          target &&
          (await refuse.run({ id: target.id, motivo })) &&
          finished(`Se rechazó la empresa ${target.nombre}; sus gestores verán el motivo.`)
        }
      />
      <ConfirmDialog
        open={acting?.action === "eliminar"}
        title="Eliminar empresa"
        message={`Se eliminará ${target?.nombre ?? ""} (NIT ${target?.nit ?? ""}). Esta acción no se puede deshacer.`}
        confirm="Eliminar"
        danger
        busy={remove.running}
        error={remove.error}
        onClose={() => setActing(null)}
        onConfirm={async () => target && (await remove.run({ id: target.id })) && finished(`Se eliminó la empresa ${target.nombre}.`)}
      />
    </>
  );
}
