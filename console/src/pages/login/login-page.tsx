import { type FormEvent, useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { isRole, session } from "../../auth/session";
import { TextField } from "../../components/fields";
import { Notice } from "../../components/notice";
import { CrearContrasenaDocument, PedirCodigoContrasenaDocument } from "../../gql/graphql";
import { useSignIn } from "./use-sign-in";

/** The address typed in either form, kept when the operator switches between them. */
interface EmailState {
  email: string;
  setEmail: (email: string) => void;
}

/** Which form the sign-in page shows, and what it says on top. */
type Step = { form: "ingresar" | "olvido" | "crear"; notice?: string };

/**
 * Sign-in; a password chosen with a code that came by mail (a company's new manager, or someone
 * who forgot theirs); and asking for such a code.
 */
export function LoginPage() {
  const [email, setEmail] = useState("");
  const [step, setStep] = useState<Step>({ form: "ingresar" });
  const emailState = { email, setEmail };
  return (
    <main className="ingreso">
      {step.form === "crear" && (
        <ChoosePasswordForm
          {...emailState}
          notice={step.notice}
          onBack={() => setStep({ form: "ingresar" })}
          onChosenForTheApp={() => setStep({ form: "ingresar", notice: CHOSEN_FOR_THE_APP })}
        />
      )}
      {step.form === "olvido" && (
        <ForgotPasswordForm
          {...emailState}
          onSent={() => setStep({ form: "crear", notice: CODE_SENT })}
          onBack={() => setStep({ form: "ingresar" })}
        />
      )}
      {step.form === "ingresar" && (
        <SignInForm
          {...emailState}
          notice={step.notice}
          onChoose={() => setStep({ form: "crear" })}
          onForgot={() => setStep({ form: "olvido" })}
        />
      )}
    </main>
  );
}

const CODE_SENT = "Si hay una cuenta con ese correo, te enviamos un código. Escríbelo aquí con tu contraseña nueva.";
const CHOSEN_FOR_THE_APP = "Tu contraseña nueva quedó guardada: entra con ella en la aplicación.";
const PASSWORD_HINT =
  "Al menos 8 caracteres. Una frase de varias palabras poco comunes es fácil de recordar y difícil de adivinar; " +
  "no hacen falta mayúsculas, números ni símbolos.";

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

function BackToSignIn({ onBack }: { onBack: () => void }) {
  return (
    <p className="ingreso__alterna">
      <button type="button" className="boton-enlace" onClick={onBack}>
        Volver a iniciar sesión
      </button>
    </p>
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

function SignInForm({
  onChoose,
  onForgot,
  notice: told,
  ...email
}: EmailState & { onChoose: () => void; onForgot: () => void; notice?: string }) {
  const [password, setPassword] = useState("");
  // Why the previous session ended (expired, revoked), read once when the form opens.
  const [notice, setNotice] = useState(() => told ?? session.takeEndReason());
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
        <button type="button" className="boton-enlace" onClick={onForgot}>
          ¿Olvidaste tu contraseña?
        </button>
      </p>
      <p className="ingreso__alterna">
        ¿Te registraron como gestor de una empresa, o ya tienes un código?{" "}
        <button type="button" className="boton-enlace" onClick={onChoose}>
          Crear mi contraseña
        </button>
      </p>
    </form>
  );
}

/** Asks for a code to choose a new password; the answer says the same whether or not the address has an account. */
function ForgotPasswordForm({ onSent, onBack, ...email }: EmailState & { onSent: () => void; onBack: () => void }) {
  const ask = useMutation(PedirCodigoContrasenaDocument, (data) => success(data.requestPasswordReset));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await ask.run({ email: email.email.trim() })) onSent();
  }

  return (
    <form className="ingreso__tarjeta" onSubmit={submit}>
      <Brand title="¿Olvidaste tu contraseña?">Te enviamos por correo un código de un solo uso para elegir una nueva.</Brand>
      <Notice kind="error">{ask.error}</Notice>
      <EmailField {...email} />
      <button type="submit" className="boton boton--bloque" disabled={ask.running}>
        {ask.running ? "Enviando…" : "Enviarme un código"}
      </button>
      <BackToSignIn onBack={onBack} />
    </form>
  );
}

/**
 * Redeems a single-use code that came by mail for a password of the person's choosing, then signs
 * them in with it; someone whose account is not for this console (a passenger, a driver) is told
 * to use it in the app instead.
 */
function ChoosePasswordForm({
  onBack,
  onChosenForTheApp,
  notice,
  ...email
}: EmailState & { onBack: () => void; onChosenForTheApp: () => void; notice?: string }) {
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
    const chosen = await choose.run({ email: address, codigo: codigo.trim(), password });
    if (!chosen) return;
    if (isRole(chosen.tipo_usuario)) await signIn(address, password);
    else onChosenForTheApp();
  }

  return (
    <form className="ingreso__tarjeta" onSubmit={submit}>
      <Brand title="Crear mi contraseña">Escribe el código que te llegó por correo y elige la contraseña con la que entrarás.</Brand>
      <Notice kind="info">{notice}</Notice>
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
        hint={PASSWORD_HINT}
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
      <BackToSignIn onBack={onBack} />
    </form>
  );
}
