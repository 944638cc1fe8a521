import { useState } from "react";
import { useMutation, useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Badge } from "../../components/badge";
import { ConfirmDialog } from "../../components/confirm-dialog";
import type { Column } from "../../components/data-table";
import { SelectField } from "../../components/fields";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { useList } from "../../components/use-list";
import { date } from "../../format";
import { EliminarEmpresaDocument, EmpresasDocument, type EmpresasQuery, type EstadoEmpresa, type OrdenEmpresas } from "../../gql/graphql";
import { COMPANY_STATES, optionsOf } from "../../labels";
import { CompanyDialog, type CompanyForm } from "./company-dialog";

type Page = Extract<EmpresasQuery["companies"], { __typename: "PaginaEmpresas" }>;
type Row = Page["items"][number];

const formOf = (company: Row): CompanyForm & { id: number } => ({
  id: company.id,
  nombre: company.nombre,
  nit: company.nit,
  email: company.email ?? "",
  telefono: company.telefono ?? "",
  direccion: company.direccion ?? "",
  estado: company.estado as EstadoEmpresa,
});

export function CompaniesPage() {
  const list = useList({ filters: { estado: "" }, sort: "nombre" as OrdenEmpresas, order: "asc" });
  const query = useQuery(
    EmpresasDocument,
    {
      page: list.page,
      per_page: 20,
      search: list.sentSearch,
      estado: (list.filters.estado || undefined) as EstadoEmpresa | undefined,
      sort: list.sorting.sort,
      order: list.sorting.order,
    },
    (result) => success(result.companies),
  );
  const remove = useMutation(EliminarEmpresaDocument, (result) => success(result.deleteCompany));
  const [editing, setEditing] = useState<"nueva" | (CompanyForm & { id: number }) | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function finished(message: string) {
    setEditing(null);
    setDeleting(null);
    setDone(message);
    query.reload();
  }

  const columns: Column<Row>[] = [
    {
      header: "Empresa",
      sort: "nombre",
      cell: (company) => (
        <>
          <strong>{company.nombre}</strong>
          <span className="tabla__secundario">{company.direccion ?? ""}</span>
        </>
      ),
    },
    { header: "NIT", sort: "nit", cell: (company) => company.nit },
    {
      header: "Contacto",
      cell: (company) => (
        <>
          {company.email ?? "—"}
          <span className="tabla__secundario">{company.telefono ?? ""}</span>
        </>
      ),
    },
    {
      header: "Estado",
      sort: "estado",
      cell: (company) => {
        const state = COMPANY_STATES[company.estado as EstadoEmpresa];
        return <Badge tone={state?.tone ?? "neutro"}>{state?.label ?? company.estado}</Badge>;
      },
    },
    { header: "Registro", sort: "creado_en", cell: (company) => date(company.creado_en) },
    {
      header: "Acciones",
      kind: "acciones",
      cell: (company) => (
        <>
          <button
            type="button"
            className="boton boton--secundario boton--compacto"
            onClick={() => {
              setDone(null);
              setEditing(formOf(company));
            }}
          >
            Editar<span className="solo-lector"> {company.nombre}</span>
          </button>
          <button
            type="button"
            className="boton boton--peligro boton--compacto"
            onClick={() => {
              setDone(null);
              remove.clearError();
              setDeleting(company);
            }}
          >
            Eliminar<span className="solo-lector"> {company.nombre}</span>
          </button>
        </>
      ),
    },
  ];

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
      <PagedList
        caption="Empresas"
        columns={columns}
        rowKey={(company) => company.id}
        empty="No hay empresas con estos filtros."
        list={list}
        query={query}
        done={done}
        search="Nombre, NIT, correo o teléfono"
      >
        <SelectField label="Estado" options={optionsOf(COMPANY_STATES, "Todas")} {...list.field("estado")} />
      </PagedList>
      <CompanyDialog company={editing} onClose={() => setEditing(null)} onSaved={finished} />
      <ConfirmDialog
        open={deleting !== null}
        title="Eliminar empresa"
        message={`Se eliminará ${deleting?.nombre ?? ""} (NIT ${deleting?.nit ?? ""}). Esta acción no se puede deshacer.`}
        confirm="Eliminar"
        danger
        busy={remove.running}
        error={remove.error}
        onClose={() => setDeleting(null)}
        onConfirm={async () => deleting && (await remove.run({ id: deleting.id })) && finished(`Se eliminó la empresa ${deleting.nombre}.`)}
      />
    </>
  );
}
