import { useEffect, useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { Dialog } from "../../components/dialog";
import { TextField } from "../../components/fields";
import { Notice } from "../../components/notice";
import { InvitarConductorDocument } from "../../gql/graphql";

/** Invites a driver to the company by e-mail; the driver answers from their own account. */
export function InviteDriverDialog({
  open,
  onClose,
  onInvited,
}: {
  open: boolean;
  onClose: () => void;
  onInvited: (message: string) => void;
}) {
  const [email, setEmail] = useState("");
  const invite = useMutation(InvitarConductorDocument, (data) => success(data.inviteDriver));
  // Each opening starts blank.
  useEffect(() => {
    if (open) setEmail("");
    invite.clearError();
  }, [open, invite.clearError]);

  async function submit() {
    const address = email.trim();
    if (await invite.run({ email: address })) {
      onInvited(`Se envió la invitación a ${address}. Si ese correo no tiene cuenta de conductor, le explicamos cómo registrarse.`);
    }
  }

  return (
    <Dialog
      open={open}
      title="Invitar conductor"
      onClose={onClose}
      onSubmit={submit}
      actions={
        <button type="submit" className="boton" disabled={invite.running}>
          {invite.running ? "Enviando…" : "Enviar invitación"}
        </button>
      }
    >
      <p>El conductor verá la invitación en su cuenta y decidirá si se une a tu empresa.</p>
      <TextField label="Correo del conductor" type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
      <Notice kind="error">{invite.error}</Notice>
    </Dialog>
  );
}
