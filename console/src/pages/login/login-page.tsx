import { type FormEvent, useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { session } from "../../auth/session";
import { revoke } from "../../app/sign-out";
import { TextField } from "../../components/fields";
import { Notice } from "../../components/notice";
import { IniciarSesionDocument } from "../../gql/graphql";

const ADMINS_ONLY = "Esta consola es solo para administradores. Tu cuenta no tiene ese permiso.";

export function LoginPage() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // Why the previous session ended (expired, revoked), read once when the page opens.
  const [notice, setNotice] = useState(session.takeEndReason);
  const [refused, setRefused] = useState<string | null>(null);
  const login = useMutation(IniciarSesionDocument, (data) => success(data.login));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    setRefused(null);
    const signedIn = await login.run({ email: email.trim(), password });
    if (!signedIn) return;
    const { user, token } = signedIn;
    // The token of an account that may not use the console is closed at once, not kept.
    if (user.tipo_usuario !== "admin") {
      await revoke(token);
      setRefused(ADMINS_ONLY);
      return;
    }
    session.start({ token, nombre: `${user.nombre} ${user.apellido}`.trim(), email: user.email });
  }

  return (
    <main className="ingreso">
      <form className="ingreso__tarjeta" onSubmit={submit}>
        <div className="ingreso__marca">
          <img src="/consola/favicon.svg" alt="" width="40" height="40" />
          <div>
            <h1>Consola de administración</h1>
            <p>Inicia sesión con tu cuenta de administrador.</p>
          </div>
        </div>
        <Notice kind="info">{notice}</Notice>
        <Notice kind="error">{login.error ?? refused}</Notice>
        <TextField
          label="Correo electrónico"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Contraseña"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <button type="submit" className="boton boton--bloque" disabled={login.running}>
          {login.running ? "Ingresando…" : "Ingresar"}
        </button>
      </form>
    </main>
  );
}
