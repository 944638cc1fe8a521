import { useEffect, useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { Dialog } from "../../components/dialog";
import { Notice } from "../../components/notice";
import { InvitarGestorDocument } from "../../gql/graphql";
import { BLANK_MANAGER, ManagerFields, managerInput } from "./manager-fields";

/** Brings another person in to run the company with the calling manager. */
export function InviteManagerDialog({
  open,
  onClose,
  onInvited,
}: {
  open: boolean;
  onClose: () => void;
  onInvited: (message: string) => void;
}) {
  const [person, setPerson] = useState(BLANK_MANAGER);
  const invite = useMutation(InvitarGestorDocument, (data) => success(data.inviteCompanyManager));
  // Each opening starts blank.
  useEffect(() => {
    if (open) setPerson(BLANK_MANAGER);
    invite.clearError();
  }, [open, invite.clearError]);

  async function submit() {
    const input = managerInput(person);
    if (await invite.run({ input })) {
      onInvited(`Se invitó a ${input.nombre} ${input.apellido}: recibirá en ${input.email} un código para crear su contraseña.`);
    }
  }

  return (
    <Dialog
      open={open}
      title="Invitar gestor"
      onClose={onClose}
      onSubmit={submit}
      actions={
        <button type="submit" className="boton" disabled={invite.running}>
          {invite.running ? "Invitando…" : "Invitar gestor"}
        </button>
      }
    >
      <ManagerFields legend="Nuevo gestor" value={person} onChange={setPerson} />
      <Notice kind="error">{invite.error}</Notice>
    </Dialog>
  );
}
