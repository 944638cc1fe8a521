import { useState } from "react";
import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import type { Column } from "../../components/data-table";
import { Dialog } from "../../components/dialog";
import { SelectField, TextField } from "../../components/fields";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { useList } from "../../components/use-list";
import { dateTime } from "../../format";
import { AccionAuditoria, AuditoriaDocument, type AuditoriaQuery, ObjetivoAuditoria, type OrdenAuditoria } from "../../gql/graphql";
import { humanize } from "../../labels";

type Page = Extract<AuditoriaQuery["auditLog"], { __typename: "PaginaAuditoria" }>;
type Row = Page["items"][number];

const choices = (values: Record<string, string>) => [
  { value: "", label: "Todas" },
  ...Object.values(values).map((value) => ({ value, label: humanize(value) })),
];
const ACTIONS = choices(AccionAuditoria);
const TARGETS = choices(ObjetivoAuditoria);

/** The details the API keeps as JSON text, laid out to read; as they came when they are not JSON. */
function readable(details: string) {
  try {
    return JSON.stringify(JSON.parse(details), null, 2);
  } catch {
    return details;
  }
}

export function AuditPage() {
  const list = useList({ filters: { accion: "", objetivo: "", desde: "", hasta: "" }, sort: "creado_en" as OrdenAuditoria, order: "desc" });
  const { filters } = list;
  const query = useQuery(
    AuditoriaDocument,
    {
      page: list.page,
      per_page: 25,
      search: list.sentSearch,
      accion: (filters.accion || undefined) as AccionAuditoria | undefined,
      objetivo_tipo: (filters.objetivo || undefined) as ObjetivoAuditoria | undefined,
      desde: filters.desde || undefined,
      hasta: filters.hasta || undefined,
      sort: list.sorting.sort,
      order: list.sorting.order,
    },
    (result) => success(result.auditLog),
  );
  const [detail, setDetail] = useState<Row | null>(null);

  const columns: Column<Row>[] = [
    { header: "Fecha", sort: "creado_en", cell: (entry) => dateTime(entry.creado_en) },
    {
      header: "Administrador",
      cell: (entry) =>
        entry.administrador ? (
          <>
            {entry.administrador.nombre} {entry.administrador.apellido}
            <span className="tabla__secundario">{entry.administrador.email}</span>
          </>
        ) : (
          "Llamada heredada"
        ),
    },
    { header: "Acción", sort: "accion", cell: (entry) => humanize(entry.accion) },
    { header: "Descripción", cell: (entry) => entry.descripcion },
    { header: "Objetivo", cell: (entry) => `${humanize(entry.objetivo_tipo)} #${entry.objetivo_id}` },
    {
      header: "Detalles",
      kind: "acciones",
      cell: (entry) =>
        entry.detalles ? (
          <button type="button" className="boton boton--secundario boton--compacto" onClick={() => setDetail(entry)}>
            Ver<span className="solo-lector"> detalles de la entrada {entry.id}</span>
          </button>
        ) : (
          "—"
        ),
    },
  ];

  return (
    <>
      <PageHeader title="Auditoría" description="Cada acción de los administradores: quién, qué, sobre qué registro y cuándo." />
      <PagedList
        caption="Entradas de la auditoría"
        columns={columns}
        rowKey={(entry) => entry.id}
        empty="Ninguna acción coincide con los filtros."
        list={list}
        query={query}
        search="Palabras de la acción o sus detalles"
      >
        <SelectField label="Acción" options={ACTIONS} {...list.field("accion")} />
        <SelectField label="Sobre" options={TARGETS} {...list.field("objetivo")} />
        <TextField label="Desde" type="date" {...list.field("desde")} />
        <TextField label="Hasta" type="date" {...list.field("hasta")} />
      </PagedList>
      <Dialog
        open={detail !== null}
        title={detail ? humanize(detail.accion) : ""}
        onClose={() => setDetail(null)}
        actions={null}
        cancelLabel="Cerrar"
      >
        {detail && (
          <>
            <p>{detail.descripcion}</p>
            <p className="tabla__secundario">
              {dateTime(detail.creado_en)} · vía {detail.via}
              {detail.direccion_ip ? ` · desde ${detail.direccion_ip}` : ""}
            </p>
            <pre className="detalles">{readable(detail.detalles ?? "")}</pre>
          </>
        )}
      </Dialog>
    </>
  );
}
