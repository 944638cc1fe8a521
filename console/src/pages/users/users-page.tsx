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
import { useList } from "../../components/use-list";
import { date } from "../../format";
import {
  ActivarUsuarioDocument,
  EliminarUsuarioDocument,
  type OrdenUsuarios,
  SuspenderUsuarioDocument,
  type TipoUsuario,
  UsuariosDocument,
} from "../../gql/graphql";
import { labelOf, optionsOf, USER_TYPES } from "../../labels";
import { type EditableUser, UserDialog } from "./user-dialog";

type Row = EditableUser & { email: string; creado_en: string };
type Action = { kind: "editar" | "suspender" | "activar" | "eliminar"; user: Row };

const STATES = [
  { value: "", label: "Todos" },
  { value: "true", label: "Activos" },
  { value: "false", label: "Suspendidos o desactivados" },
];

const fullName = (user: Row) => `${user.nombre} ${user.apellido}`.trim();

export function UsersPage() {
  const list = useList({ filters: { tipo: "", activo: "" }, sort: "fecha_registro" as OrdenUsuarios, order: "desc" });
  const query = useQuery(
    UsuariosDocument,
    {
      page: list.page,
      per_page: 20,
      search: list.sentSearch,
      tipo_usuario: (list.filters.tipo || undefined) as TipoUsuario | undefined,
      es_activo: list.filters.activo === "" ? undefined : list.filters.activo === "true",
      sort: list.sorting.sort,
      order: list.sorting.order,
    },
    (result) => success(result.users),
  );
  const [action, setAction] = useState<Action | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const suspend = useMutation(SuspenderUsuarioDocument, (result) => success(result.suspendUser));
  const activate = useMutation(ActivarUsuarioDocument, (result) => success(result.activateUser));
  const remove = useMutation(EliminarUsuarioDocument, (result) => success(result.deleteUser));

  function finished(message: string) {
    setAction(null);
    setDone(message);
    query.reload();
  }

  const button = (kind: Action["kind"], user: Row, label: string, danger = false) => (
    <button
      type="button"
      className={danger ? "boton boton--peligro boton--compacto" : "boton boton--secundario boton--compacto"}
      onClick={() => {
        setDone(null);
        for (const mutation of [suspend, activate, remove]) mutation.clearError();
        setAction({ kind, user });
      }}
    >
      {label}
      <span className="solo-lector"> a {fullName(user)}</span>
    </button>
  );

  const columns: Column<Row>[] = [
    {
      header: "Nombre",
      sort: "nombre",
      cell: (user) => (
        <>
          <strong>{fullName(user)}</strong>
          <span className="tabla__secundario">{user.email}</span>
        </>
      ),
    },
    { header: "Teléfono", cell: (user) => user.telefono || "—" },
    { header: "Tipo", sort: "tipo_usuario", cell: (user) => labelOf(USER_TYPES, user.tipo_usuario) },
    {
      header: "Estado",
      cell: (user) => (
        <>
          {user.es_activo ? <Badge tone="exito">Activo</Badge> : <Badge tone="peligro">Suspendido</Badge>}
          <span className="tabla__secundario">{user.es_verificado ? "Correo verificado" : "Correo sin verificar"}</span>
        </>
      ),
    },
    { header: "Registro", sort: "fecha_registro", cell: (user) => date(user.creado_en) },
    {
      header: "Acciones",
      kind: "acciones",
      cell: (user) => (
        <>
          {button("editar", user, "Editar")}
          {user.es_activo ? button("suspender", user, "Suspender") : button("activar", user, "Activar")}
          {button("eliminar", user, "Eliminar", true)}
        </>
      ),
    },
  ];

  const target = action?.user;
  return (
    <>
      <PageHeader title="Usuarios" description="Pasajeros, conductores, empresas y administradores de la plataforma." />
      <PagedList
        caption="Usuarios"
        columns={columns}
        rowKey={(user) => user.id}
        empty="Ningún usuario coincide con la búsqueda."
        list={list}
        query={query}
        done={done}
        search="Nombre, correo o teléfono"
      >
        <SelectField label="Tipo" options={optionsOf(USER_TYPES, "Todos")} {...list.field("tipo")} />
        <SelectField label="Estado" options={STATES} {...list.field("activo")} />
      </PagedList>
      <UserDialog
        user={action?.kind === "editar" ? action.user : null}
        onClose={() => setAction(null)}
        onSaved={(name) => finished(`Se guardaron los cambios de ${name}.`)}
      />
      <ReasonDialog
        open={action?.kind === "suspender"}
        title="Suspender cuenta"
        message={`${target ? fullName(target) : ""} no podrá entrar hasta que alguien reactive su cuenta; sus sesiones se cierran y se le notifica el motivo.`}
        label="Motivo de la suspensión"
        confirm="Suspender"
        danger
        busy={suspend.running}
        error={suspend.error}
        onClose={() => setAction(null)}
        onConfirm={async (motivo) =>
          target && (await suspend.run({ user_id: target.id, motivo })) && finished(`${fullName(target)} quedó suspendido.`)
        }
      />
      <ConfirmDialog
        open={action?.kind === "activar"}
        title="Activar cuenta"
        message={`${target ? fullName(target) : ""} podrá volver a entrar a la plataforma.`}
        confirm="Activar"
        busy={activate.running}
        error={activate.error}
        onClose={() => setAction(null)}
        onConfirm={async () => target && (await activate.run({ user_id: target.id })) && finished(`${fullName(target)} quedó activo.`)}
      />
      <ConfirmDialog
        open={action?.kind === "eliminar"}
        title="Eliminar cuenta"
        message={`Se eliminará la cuenta de ${target ? `${fullName(target)} (${target.email})` : ""} para siempre. Sus viajes quedan en el historial sin el usuario. Esta acción no se puede deshacer.`}
        confirm="Eliminar para siempre"
        danger
        busy={remove.running}
        error={remove.error}
        onClose={() => setAction(null)}
        onConfirm={async () =>
          target && (await remove.run({ user_id: target.id })) && finished(`Se eliminó la cuenta de ${fullName(target)}.`)
        }
      />
    </>
  );
}
