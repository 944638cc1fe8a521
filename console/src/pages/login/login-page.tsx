import { type FormEvent, useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { session } from "../../auth/session";
import { TextField } from "../../components/fields";
import { Notice } from "../../components/notice";
import { CrearContrasenaDocument } from "../../gql/graphql";
import { useSignIn } from "./use-sign-in";

/** The address typed in either form, kept when the operator switches between them. */
interface EmailState {
  email: string;
  setEmail: (email: string) => void;
}

/** Sign-in, or the first password of someone who got a code by mail (a company's new manager). */
export function LoginPage() {
  const [email, setEmail] = useState("");
  const [choosing, setChoosing] = useState(false);
  return (
    <main className="ingreso">
      {choosing ? (
        <ChoosePasswordForm email={email} setEmail={setEmail} onBack={() => setChoosing(false)} />
      ) : (
        <SignInForm email={email} setEmail={setEmail} onChoose={() => setChoosing(true)} />
      )}
    </main>
  );
}

function Brand({ title, children }: { title: string; children: string }) {
  return (
    <div className="ingreso__marca">
      <img src="/consola/favicon.svg" alt="" width="40" height="40" />
      <div>
        <h1>{title}</h1>
        <p>{children}</p>
      </div>
    </div>
  );
}

function EmailField({ email, setEmail }: EmailState) {
  return (
    <TextField
      label="Correo electrónico"
      type="email"
      autoComplete="username"
      required
      autoFocus
      value={email}
      onChange={(event) => setEmail(event.target.value)}
    />
  );
}

function SignInForm({ onChoose, ...email }: EmailState & { onChoose: () => void }) {
  const [password, setPassword] = useState("");
  // Why the previous session ended (expired, revoked), read once when the form opens.
  const [notice, setNotice] = useState(session.takeEndReason);
  const { signIn, running, error } = useSignIn();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    await signIn(email.email.trim(), password);
  }

  return (
    <form className="ingreso__tarjeta" onSubmit={submit}>
      <Brand title="Consola de administración">Para administradores y gestores de empresas.</Brand>
      <Notice kind="info">{notice}</Notice>
      <Notice kind="error">{error}</Notice>
      <EmailField {...email} />
      <TextField
        label="Contraseña"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <button type="submit" className="boton boton--bloque" disabled={running}>
        {running ? "Ingresando…" : "Ingresar"}
      </button>
      <p className="ingreso__alterna">
        ¿Te registraron como gestor de una empresa?{" "}
        <button type="button" className="boton-enlace" onClick={onChoose}>
          Crear mi contraseña
        </button>
      </p>
    </form>
  );
}

/** Redeems the single-use code a new manager got by mail for a password of their choosing, then signs them in with it. */
function ChoosePasswordForm({ onBack, ...email }: EmailState & { onBack: () => void }) {
  const [codigo, setCodigo] = useState("");
  const [password, setPassword] = useState("");
  const [repeated, setRepeated] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const choose = useMutation(CrearContrasenaDocument, (data) => success(data.choosePassword));
  const { signIn, running, error } = useSignIn();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMismatch(password !== repeated);
    if (password !== repeated) return;
    const address = email.email.trim();
    if (await choose.run({ email: address, codigo: codigo.trim(), password })) await signIn(address, password);
  }

  return (
    <form className="ingreso__tarjeta" onSubmit={submit}>
      <Brand title="Crear mi contraseña">Escribe el código que te llegó por correo y elige la contraseña con la que entrarás.</Brand>
      <Notice kind="error">{mismatch ? "Las dos contraseñas no coinciden." : (choose.error ?? error)}</Notice>
      <EmailField {...email} />
      <TextField
        label="Código"
        autoComplete="one-time-code"
        autoCapitalize="characters"
        spellCheck={false}
        required
        hint="Como XXXX-XXXX-XXXX-XXXX; sirve una sola vez y vence a los 3 días."
        value={codigo}
        onChange={(event) => setCodigo(event.target.value)}
      />
      <TextField
        label="Contraseña nueva"
        type="password"
        autoComplete="new-password"
        required
        hint="Al menos 8 caracteres. Una frase de varias palabras poco comunes es fácil de recordar y difícil de adivinar; no hacen falta mayúsculas, números ni símbolos."
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <TextField
        label="Repite la contraseña"
        type="password"
        autoComplete="new-password"
        required
        value={repeated}
        onChange={(event) => setRepeated(event.target.value)}
      />
      <button type="submit" className="boton boton--bloque" disabled={choose.running || running}>
        {choose.running || running ? "Creando…" : "Crear contraseña e ingresar"}
      </button>
      <p className="ingreso__alterna">
        <button type="button" className="boton-enlace" onClick={onBack}>
          Volver a iniciar sesión
        </button>
      </p>
    </form>
  );
}
