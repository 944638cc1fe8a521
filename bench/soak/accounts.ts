import { readFileSync } from "node:fs";
import type { Answer, Api } from "./client.js";
import { ToolError } from "./lifecycle.js";
import type { Random } from "./random.js";
import { untilSettled } from "./retry.js";
import { ADMIN } from "./stack.js";

/** A signed-in account: its id, and the token login.php answered (for graphql-ws and Idempotency-Key scopes). */
export interface Account {
  id: number;
  token: string;
}

export type Vehicle = "moto" | "auto";

const PASSWORD = "Soak#Clave2024";
const PHOTO = readFileSync(new URL("../../test/fixtures/documento.jpg", import.meta.url));
/** Every photo an application needs, as the app's document screen uploads them. */
const DOCUMENTS = ["licencia_frente", "licencia_reverso", "vehiculo", "tarjeta_propiedad", "soat", "tecnomecanica"];
const DAY_MS = 24 * 3600 * 1000;
const day = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/** The answer, when it is a 200 with success; the tool cannot set the city up otherwise. */
function ok(answer: Answer, what: string): Answer {
  if (answer.status === 200 && answer.body.success === true) return answer;
  throw new ToolError(`setting the city up, ${what} answered ${answer.outcome}: ${answer.body.message ?? "(no message)"}`);
}

async function login(api: Api, email: string, password = PASSWORD): Promise<Account> {
  const { body } = ok(await api.post("/auth/login.php", { email, password }), `login of ${email}`);
  return { id: body.user!.id, token: body.token! };
}

async function register(api: Api, email: string, tipo_usuario: "pasajero" | "conductor"): Promise<Account> {
  ok(
    await api.post("/auth/register.php", {
      email,
      password: PASSWORD,
      name: "Soak",
      lastName: email.split("@")[0]!,
      phone: "3001234567",
      tipo_usuario,
    }),
    `registration of ${email}`,
  );
  return login(api, email);
}

export const signInAdmin = (api: Api) => login(api, ADMIN.email, ADMIN.password);

export const newPassenger = (api: Api, n: number) => register(api, `pasajero${n}@soak.test`, "pasajero");

/**
 * A driver onboarded as the app does it: registration, login, profile, a photo of every document,
 * licence, vehicle, submission for review; then an administrator approves the application.
 * The driver is not online yet.
 */
export async function newDriver(api: Api, admin: Account, n: number, vehicle: Vehicle): Promise<Account> {
  const driver = await register(api, `conductor${n}@soak.test`, "conductor");
  const conductor_id = driver.id;
  const step = async (path: string, body: Record<string, unknown>) =>
    ok(await api.post(path, { conductor_id, ...body }), `${path} of driver ${n}`);
  await step("/conductor/update_profile.php", {
    nombre_completo: `Conductor ${n}`,
    telefono: "3105551234",
    direccion: "Cra 70 # 44-10, Medellín",
  });
  for (const tipo_documento of DOCUMENTS) {
    const form = new FormData();
    form.append("conductor_id", String(conductor_id));
    form.append("tipo_documento", tipo_documento);
    form.append("documento", new Blob([new Uint8Array(PHOTO)], { type: "image/jpeg" }), `${tipo_documento}.jpg`);
    ok(await api.upload("/conductor/upload_documents.php", form), `upload of ${tipo_documento} of driver ${n}`);
  }
  const plate = `SK${String(n).padStart(4, "0")}`;
  await step("/conductor/update_license.php", {
    numero: `LIC${plate}`,
    tipo: vehicle === "moto" ? "A2" : "B1",
    fecha_emision: day(-400),
    fecha_expiracion: day(1500),
  });
  await step("/conductor/update_vehicle.php", {
    marca: vehicle === "moto" ? "Yamaha" : "Renault",
    modelo: vehicle === "moto" ? "FZ" : "Logan",
    anio: 2021,
    placa: plate,
    color: "Blanco",
    tipo: vehicle,
    soat_numero: `SOAT${plate}`,
    soat_vencimiento: day(365),
    tecnomecanica_numero: `RTM${plate}`,
    tecnomecanica_vencimiento: day(300),
    tarjeta_propiedad_numero: `TP${plate}`,
  });
  await step("/conductor/submit_for_approval.php", {});
  ok(await api.post("/admin/aprobar_conductor.php", { admin_id: admin.id, conductor_id }), `approval of driver ${n}`);
  return driver;
}

/** The driver online at `at`, as the app's first location report with availability does it. */
export async function goOnline(api: Api, driver: Account, at: { latitud: number; longitud: number }, random: Random): Promise<void> {
  const { answer } = await untilSettled(
    () => api.post("/conductor/update_location.php", { conductor_id: driver.id, ...at, disponibilidad: 1 }, { timeoutMs: 10_000 }),
    { deadlineMs: 30_000, random },
  );
  if (answer) ok(answer, `going online of driver ${driver.id}`);
  else throw new ToolError(`setting the city up, driver ${driver.id} could not go online within 30 s`);
}

/** Runs `task` for 0…count-1, `width` at a time. */
export async function inParallel<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
  return results;
}
