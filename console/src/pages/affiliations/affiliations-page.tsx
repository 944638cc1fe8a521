import { useState } from "react";
import { useMutation, useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Badge } from "../../components/badge";
import { ConfirmDialog } from "../../components/confirm-dialog";
import type { Column } from "../../components/data-table";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { ReasonDialog } from "../../components/reason-dialog";
import { Tabs } from "../../components/tabs";
import { useList } from "../../components/use-list";
import { dateTime } from "../../format";
import {
  AceptarSolicitudDocument,
  type EstadoAfiliacion,
  RechazarSolicitudDocument,
  SolicitudesEmpresaDocument,
  type SolicitudesEmpresaQuery,
} from "../../gql/graphql";
import { AFFILIATION_STATES } from "../../labels";
import { InviteDriverDialog } from "./invite-driver-dialog";

type Page = Extract<SolicitudesEmpresaQuery["companyAffiliations"], { __typename: "PaginaSolicitudesAfiliacion" }>;
type Row = Page["items"][number];

/** Who a request or invitation is about: the driver's name, or the address invited. */
const personOf = (row: Row) => row.conductor_nombre ?? row.email ?? `Conductor #${row.conductor_id}`;

/**
 * A company's side of joining: the drivers who ask to join it (accepted or refused here), the
 * invitations it sent, and a new invitation by e-mail.
 */
export function AffiliationsPage() {
  // The API lists them newest first; there is nothing else to sort by.
  const list = useList({ filters: { estado: "solicitada" }, sort: "creado_en", order: "desc" });
  const query = useQuery(
    SolicitudesEmpresaDocument,
    { page: list.page, per_page: 20, estado: (list.filters.estado || undefined) as EstadoAfiliacion | undefined },
    (result) => ({
      ...success(result.companyAffiliations),
      solicitadas: success(result.solicitadas).pagination.total,
      invitadas: success(result.invitadas).pagination.total,
    }),
  );
  const accept = useMutation(AceptarSolicitudDocument, (result) => success(result.acceptCompanyAffiliation));
  const refuse = useMutation(RechazarSolicitudDocument, (result) => success(result.refuseCompanyAffiliation));
  const [answering, setAnswering] = useState<{ accion: "aceptar" | "rechazar"; request: Row } | null>(null);
  const [inviting, setInviting] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  function finished(message: string) {
    setAnswering(null);
    setInviting(false);
    setDone(message);
    query.reload();
  }

  function answer(accion: "aceptar" | "rechazar", request: Row) {
    accept.clearError();
    refuse.clearError();
    setDone(null);
    setAnswering({ accion, request });
  }

  const columns: Column<Row>[] = [
    {
      header: "Conductor",
      cell: (row) => (
        <>
          <strong>{personOf(row)}</strong>
          {row.conductor_nombre && row.email && <span className="tabla__secundario">{row.email}</span>}
          <span className="tabla__secundario">
            {row.es_invitacion ? "Invitado" : "Pidió unirse"} el {dateTime(row.creado_en)}
          </span>
        </>
      ),
    },
    {
      header: "Estado",
      cell: (row) => (
        <>
          <Badge tone={AFFILIATION_STATES[row.estado].tone}>{AFFILIATION_STATES[row.estado].label}</Badge>
          {row.motivo && <span className="tabla__secundario">{row.motivo}</span>}
          {row.resuelta_en && <span className="tabla__secundario">Respondida el {dateTime(row.resuelta_en)}</span>}
        </>
      ),
    },
    {
      header: "Acciones",
      kind: "acciones",
      cell: (row) =>
        row.estado === "solicitada" && (
          <>
            <button type="button" className="boton boton--compacto" onClick={() => answer("aceptar", row)}>
              Aceptar<span className="solo-lector"> a {personOf(row)}</span>
            </button>
            <button type="button" className="boton boton--peligro boton--compacto" onClick={() => answer("rechazar", row)}>
              Rechazar<span className="solo-lector"> a {personOf(row)}</span>
            </button>
          </>
        ),
    },
  ];

  const person = answering ? personOf(answering.request) : "";
  return (
    <>
      <PageHeader
        title="Solicitudes"
        description="Los conductores que piden unirse a tu empresa y las invitaciones que enviaste; los que ya son de ella, en Conductores."
      >
        <button
          type="button"
          className="boton"
          onClick={() => {
            setDone(null);
            setInviting(true);
          }}
        >
          Invitar conductor
        </button>
      </PageHeader>
      <Tabs
        label="Solicitudes e invitaciones"
        value={list.filters.estado}
        onChange={(estado) => list.setFilter("estado", estado)}
        tabs={[
          { value: "solicitada", label: "Pendientes", count: query.data?.solicitadas },
          { value: "invitada", label: "Invitaciones", count: query.data?.invitadas },
          { value: "", label: "Todas" },
        ]}
      >
        <PagedList
          caption="Solicitudes e invitaciones"
          columns={columns}
          rowKey={(row) => row.id}
          empty={list.filters.estado === "solicitada" ? "Ningún conductor espera respuesta." : "No hay nada aquí todavía."}
          list={list}
          query={query}
          done={done}
        />
      </Tabs>
      <ConfirmDialog
        open={answering?.accion === "aceptar"}
        title="Aceptar solicitud"
        message={`${person} pasará a ser conductor de tu empresa, y se le avisará.`}
        confirm="Aceptar"
        busy={accept.running}
        error={accept.error}
        onClose={() => setAnswering(null)}
        onConfirm={async () =>
          answering && (await accept.run({ solicitud_id: answering.request.id })) && finished(`${person} ya es conductor de tu empresa.`)
        }
      />
      <ReasonDialog
        open={answering?.accion === "rechazar"}
        title="Rechazar solicitud"
        message={`${person} verá el motivo.`}
        label="Motivo del rechazo"
        confirm="Rechazar"
        danger
        busy={refuse.running}
        error={refuse.error}
        onClose={() => setAnswering(null)}
        onConfirm={async (motivo) =>
          answering &&
          (await refuse.run({ solicitud_id: answering.request.id, motivo })) &&
          finished(`Se rechazó la solicitud de ${person}; se le informó el motivo.`)
        }
      />
      <InviteDriverDialog open={inviting} onClose={() => setInviting(false)} onInvited={finished} />
    </>
  );
}
