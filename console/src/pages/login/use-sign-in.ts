import { useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { revoke } from "../../app/sign-out";
import { isRole, session } from "../../auth/session";
import { IniciarSesionDocument } from "../../gql/graphql";

const NOT_FOR_THIS_ACCOUNT = "Esta consola es para administradores y gestores de empresas. Tu cuenta no tiene ese permiso.";

/**
 * Signs an operator in: an administrator, or a company's manager, keeps the session with their role;
 * the token of any other account is closed at once, not kept.
 */
export function useSignIn() {
  const login = useMutation(IniciarSesionDocument, (data) => success(data.login));
  const [refused, setRefused] = useState<string | null>(null);

  async function signIn(email: string, password: string) {
    setRefused(null);
    const signedIn = await login.run({ email, password });
    if (!signedIn) return;
    const { user, token } = signedIn;
    if (!isRole(user.tipo_usuario)) {
      await revoke(token);
      setRefused(NOT_FOR_THIS_ACCOUNT);
      return;
    }
    session.start({
      token,
      rol: user.tipo_usuario,
      nombre: `${user.nombre} ${user.apellido}`.trim(),
      email: user.email,
      empresa: user.tipo_usuario === "empresa" ? (user.empresa?.nombre ?? null) : null,
    });
  }

  return { signIn, running: login.running, error: login.error ?? refused };
}
