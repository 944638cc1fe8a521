import { useState } from "react";
import { useMutation, useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { useSession } from "../../auth/session";
import { Badge } from "../../components/badge";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { type Column, DataTable } from "../../components/data-table";
import { Loading, Notice } from "../../components/notice";
import { PageHeader } from "../../components/page-header";
import { date } from "../../format";
import { GestoresEmpresaDocument, type GestoresEmpresaQuery, QuitarGestorDocument } from "../../gql/graphql";
import { managerStanding } from "../../labels";
import { InviteManagerDialog } from "./invite-manager-dialog";

type Manager = Extract<GestoresEmpresaQuery["companyManagers"], { __typename: "QueryCompanyManagersSuccess" }>["data"][number];

const nameOf = (manager: Manager) => `${manager.nombre} ${manager.apellido}`;

/** The people who run the company: invite another, or take one off (never the last one). */
export function ManagersPage() {
  const current = useSession();
  const {
    data: managers,
    error,
    loading,
    reload,
  } = useQuery(GestoresEmpresaDocument, {}, (result) => success(result.companyManagers).data);
  const remove = useMutation(QuitarGestorDocument, (result) => success(result.removeCompanyManager));
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Manager | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const isMe = (manager: Manager) => manager.email === current?.email;

  function finished(message: string) {
    setInviting(false);
    setRemoving(null);
    setDone(message);
    reload();
  }

  const columns: Column<Manager>[] = [
    {
      header: "Gestor",
      cell: (manager) => (
        <>
          <strong>
            {nameOf(manager)}
            {isMe(manager) && " (tú)"}
          </strong>
          <span className="tabla__secundario">{manager.email}</span>
        </>
      ),
    },
    { header: "Teléfono", cell: (manager) => manager.telefono },
    {
      header: "Estado",
      cell: (manager) => {
        const standing = managerStanding(manager.es_verificado);
        return (
          <>
            <Badge tone={standing.tone}>{standing.label}</Badge>
            {!manager.es_verificado && <span className="tabla__secundario">Aún no usa el código que recibió por correo</span>}
          </>
        );
      },
    },
    { header: "Desde", cell: (manager) => date(manager.creado_en) },
    {
      header: "Acciones",
      kind: "acciones",
      cell: (manager) => (
        <button
          type="button"
          className="boton boton--peligro boton--compacto"
          onClick={() => {
            setDone(null);
            remove.clearError();
            setRemoving(manager);
          }}
        >
          Quitar<span className="solo-lector"> a {nameOf(manager)}</span>
        </button>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Gestores" description="Las personas que gestionan tu empresa en esta consola.">
        <button
          type="button"
          className="boton"
          onClick={() => {
            setDone(null);
            setInviting(true);
          }}
        >
          Invitar gestor
        </button>
      </PageHeader>
      <Notice kind="exito">{done}</Notice>
      <Notice kind="error">{error}</Notice>
      {!managers && loading && <Loading />}
      {managers && <DataTable caption="Gestores" columns={columns} rows={managers} rowKey={(manager) => manager.id} busy={loading} />}
      <InviteManagerDialog open={inviting} onClose={() => setInviting(false)} onInvited={finished} />
      <ConfirmDialog
        open={removing !== null}
        title="Quitar gestor"
        message={
          removing && isMe(removing)
            ? "Dejarás de gestionar la empresa: tu cuenta se cerrará y saldrás de la consola."
            : `${removing ? nameOf(removing) : ""} dejará de gestionar la empresa y su cuenta se cerrará.`
        }
        confirm="Quitar"
        danger
        busy={remove.running}
        error={remove.error}
        onClose={() => setRemoving(null)}
        onConfirm={async () =>
          removing && (await remove.run({ usuario_id: removing.id })) && finished(`${nameOf(removing)} ya no gestiona la empresa.`)
        }
      />
    </>
  );
}
