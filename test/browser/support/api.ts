import { randomInt, randomUUID } from "node:crypto";
import { deflateSync } from "node:zlib";
import { expect } from "vitest";

/** The administrator the demo data loads (README, "Demo accounts"). */
export const ADMIN = { email: "admin@demo.co", password: "Admin#2024demo" };
/** The password of every account the tests register. */
export const PASSWORD = "Clave#Segura1";

const LLERAS = { direccion: "Parque Lleras, El Poblado", latitud: 6.2086, longitud: -75.5659 };
const ESTADIO = { direccion: "Estadio Atanasio Girardot", latitud: 6.2568, longitud: -75.5904 };

const day = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000).toISOString().slice(0, 10);

/** The service's HTTP interfaces, called from the test process as another client would: GraphQL and the legacy calls. */
export class Api {
  constructor(readonly base: string) {}

  /** One GraphQL operation; `token` signs it as that session. Fails the test on a GraphQL error. */
  async graphql<T = any>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
    const response = await fetch(`${this.base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: unknown[] };
    expect(body.errors, JSON.stringify(body)).toBeUndefined();
    return body.data as T;
  }

  /** A legacy JSON call (GET sends `body` as the query string); fails the test unless it answers 200 with success. */
  async legacy(method: string, path: string, body: Record<string, unknown> = {}): Promise<any> {
    const query = method === "GET" ? `?${new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]))}` : "";
    const response = await fetch(`${this.base}${path}${query}`, {
      method,
      headers: method === "GET" ? {} : { "content-type": "application/json" },
      body: method === "GET" ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    expect(response.status, `${path}: ${JSON.stringify(answer)}`).toBe(200);
    expect(answer.success, `${path}: ${JSON.stringify(answer)}`).toBe(true);
    return answer;
  }

  /** Signs in through the legacy login and answers the session token. */
  async login(email: string, password = PASSWORD): Promise<string> {
    const answer = await this.legacy("POST", "/auth/login.php", { email, password });
    expect(answer.token).toEqual(expect.any(String));
    return answer.token;
  }

  adminToken = () => this.login(ADMIN.email, ADMIN.password);

  /** A new account registered through the legacy call, as the apps do. */
  async register(tipo_usuario: "pasajero" | "conductor", name = "Ana", lastName = "Restrepo") {
    const email = `${tipo_usuario}.${randomUUID().slice(0, 8)}@example.com`;
    const answer = await this.legacy("POST", "/auth/register.php", {
      email,
      password: PASSWORD,
      name,
      lastName,
      phone: "3001234567",
      tipo_usuario,
    });
    return { id: answer.user.id as number, email, nombre: `${name} ${lastName}` };
  }

  /** A company signed up through the legacy register call with its first manager's account: it waits for review. */
  async registerCompany(nombre: string) {
    const email = `gestor.${randomUUID().slice(0, 8)}@example.com`;
    const answer = await this.legacy("POST", "/auth/register.php", {
      email,
      password: PASSWORD,
      name: "Gloria",
      lastName: "Gestora",
      phone: "3004445566",
      tipo_usuario: "empresa",
      empresa_nombre: nombre,
      empresa_nit: `9${randomInt(10_000_000, 99_999_999)}-${randomInt(0, 10)}`,
    });
    expect(answer.empresa).toMatchObject({ nombre, estado: "pendiente" });
    return {
      manager: { id: answer.user.id as number, email, nombre: "Gloria Gestora" },
      company: answer.empresa as { id: number; nombre: string },
    };
  }

  /** A company that signed up and the administrator approved over GraphQL. */
  async activeCompany(adminToken: string, nombre: string) {
    const signedUp = await this.registerCompany(nombre);
    const approved = await this.graphql(
      `mutation ($id: Int!) { approveCompany(id: $id) { __typename ... on Empresa { estado } ... on Error { message } } }`,
      { id: signedUp.company.id },
      adminToken,
    );
    expect(approved.approveCompany).toEqual({ __typename: "Empresa", estado: "activa" });
    return signedUp;
  }

  /** Sets a company's share (%) of the platform's commission, as the administrator over GraphQL. */
  async setCompanyShare(adminToken: string, id: number, porcentaje: number) {
    const data = await this.graphql(
      `mutation ($id: Int!, $porcentaje: Float!) { setCompanyShare(id: $id, porcentaje: $porcentaje) { __typename ... on Error { message } } }`,
      { id, porcentaje },
      adminToken,
    );
    expect(data.setCompanyShare).toEqual({ __typename: "Empresa" });
  }

  /** The driver asks to join an active company and its manager accepts, both over GraphQL with their sessions. */
  async joinCompany(driverToken: string, managerToken: string, empresaId: number) {
    const asked = await this.graphql(
      `mutation ($id: Int!) { requestCompanyAffiliation(empresa_id: $id) { __typename ... on SolicitudAfiliacion { id } ... on Error { message } } }`,
      { id: empresaId },
      driverToken,
    );
    expect(asked.requestCompanyAffiliation.__typename, JSON.stringify(asked)).toBe("SolicitudAfiliacion");
    const accepted = await this.graphql(
      `mutation ($id: Int!) { acceptCompanyAffiliation(solicitud_id: $id) { __typename ... on Error { message } } }`,
      { id: asked.requestCompanyAffiliation.id },
      managerToken,
    );
    expect(accepted.acceptCompanyAffiliation).toEqual({ __typename: "SolicitudAfiliacion" });
  }

  /** A company as the administrator reads it over GraphQL. */
  async company(adminToken: string, id: number) {
    const data = await this.graphql(
      `query ($id: Int!) { company(id: $id) { __typename ... on Empresa { estado motivo_rechazo porcentaje_comision } ... on Error { message } } }`,
      { id },
      adminToken,
    );
    return data.company;
  }

  /** Uploads a document photo as the driver app does: multipart to upload_documents.php. Answers its URL. */
  async uploadDocument(conductorId: number, tipo: string, image: Uint8Array): Promise<string> {
    const form = new FormData();
    form.set("conductor_id", String(conductorId));
    form.set("tipo_documento", tipo);
    form.set("documento", new Blob([new Uint8Array(image)], { type: "image/png" }), `${tipo}.png`);
    const response = await fetch(`${this.base}/conductor/upload_documents.php`, { method: "POST", body: form });
    const answer = await response.json();
    expect(response.status, JSON.stringify(answer)).toBe(200);
    return answer.url;
  }

  /**
   * A driver who applied and waits for review: registered, every document photo uploaded, profile,
   * vehicle and licence filled in over GraphQL as the driver, and the application submitted.
   */
  async submittedDriver(name = "Carla", lastName = "Gómez") {
    const driver = await this.register("conductor", name, lastName);
    const token = await this.login(driver.email);
    const photos: Record<string, string> = {};
    for (const [index, tipo] of [
      "licencia_frente",
      "licencia_reverso",
      "vehiculo",
      "tarjeta_propiedad",
      "soat",
      "tecnomecanica",
    ].entries()) {
      photos[tipo] = await this.uploadDocument(driver.id, tipo, documentPng(index));
    }
    const plate = randomUUID().replace(/-/g, "").slice(0, 6).toUpperCase();
    const steps: [string, string, Record<string, unknown>][] = [
      [
        "updateDriverProfile",
        "DriverProfileInput",
        { nombre_completo: driver.nombre, telefono: "3105551234", direccion: "Cra 70 # 44-10" },
      ],
      [
        "updateVehicle",
        "VehicleInput",
        {
          marca: "Renault",
          modelo: "Logan",
          anio: 2020,
          placa: plate,
          color: "Blanco",
          tipo: "auto",
          soat_numero: `SOAT-${plate}`,
          soat_vencimiento: day(365),
          tecnomecanica_numero: `RTM-${plate}`,
          tecnomecanica_vencimiento: day(300),
          tarjeta_propiedad_numero: `TP-${plate}`,
          foto_vehiculo: photos.vehiculo,
          foto_tarjeta_propiedad: photos.tarjeta_propiedad,
          foto_soat: photos.soat,
          foto_tecnomecanica: photos.tecnomecanica,
        },
      ],
      [
        "updateLicense",
        "LicenseInput",
        {
          numero: `LIC-${plate}`,
          tipo: "B1",
          fecha_emision: day(-400),
          fecha_expiracion: day(1500),
          imagen_frente: photos.licencia_frente,
          imagen_reverso: photos.licencia_reverso,
        },
      ],
    ];
    for (const [mutation, type, input] of steps) {
      const data = await this.graphql(
        `mutation ($input: ${type}!) { ${mutation}(input: $input) { __typename ... on Error { message } } }`,
        { input },
        token,
      );
      expect(data[mutation], `${mutation}: ${JSON.stringify(data)}`).not.toHaveProperty("message");
    }
    const submitted = await this.graphql(`mutation { submitForApproval { __typename ... on Error { message } } }`, {}, token);
    expect(submitted.submitForApproval, JSON.stringify(submitted)).toEqual({ __typename: "ResultadoRevision" });
    return { ...driver, token, plate };
  }

  /** The driver's review state, as an administrator reads it over GraphQL. */
  async reviewState(adminToken: string, conductorId: number): Promise<string> {
    const data = await this.graphql(
      `query ($id: Int!) { driverProfile(conductor_id: $id) { __typename ... on PerfilConductor { estado_revision } ... on Error { message } } }`,
      { id: conductorId },
      adminToken,
    );
    return data.driverProfile.estado_revision ?? JSON.stringify(data.driverProfile);
  }

  /** A submitted driver approved by the administrator over GraphQL. */
  async approvedDriver(adminToken: string, name = "Diego", lastName = "Ruiz") {
    const driver = await this.submittedDriver(name, lastName);
    const approved = await this.graphql(
      `mutation ($id: Int!) { approveDriver(conductor_id: $id) { __typename ... on Error { message } } }`,
      { id: driver.id },
      adminToken,
    );
    expect(approved.approveDriver, JSON.stringify(approved)).not.toHaveProperty("message");
    return driver;
  }

  /** The driver connects, available, at `at`, through the legacy location call the driver app makes. */
  async goOnline(driverId: number, at = LLERAS) {
    await this.legacy("POST", "/conductor/update_location.php", {
      conductor_id: driverId,
      latitud: at.latitud,
      longitud: at.longitud,
      disponibilidad: 1,
    });
  }

  /** A submitted driver approved by the administrator and online at `at` through the legacy location call. */
  async onlineDriver(adminToken: string, at = LLERAS) {
    const driver = await this.approvedDriver(adminToken);
    await this.goOnline(driver.id, at);
    return driver;
  }

  /** A car trip from Parque Lleras to the stadium, requested through the legacy call. */
  async requestTrip(passengerId: number): Promise<{ id: number; estado: string }> {
    const answer = await this.legacy("POST", "/viajes/create_trip.php", {
      usuario_id: passengerId,
      tipo_servicio: "auto",
      origen: LLERAS,
      destino: ESTADIO,
    });
    return answer.trip;
  }

  /** The online driver takes the trip, through the legacy call the driver app makes. */
  acceptTrip = (tripId: number, driverId: number) =>
    this.legacy("POST", "/viajes/accept_trip.php", { trip_id: tripId, conductor_id: driverId });

  /** The passenger is on board. */
  startTrip = (tripId: number) => this.legacy("POST", "/viajes/start_trip.php", { trip_id: tripId });

  /** The trip ends at `precio_final` (cash). */
  completeTrip = (tripId: number, precio_final: number) =>
    this.legacy("POST", "/viajes/complete_trip.php", { trip_id: tripId, precio_final });

  /** A trip the online driver takes, starts and completes at `precio_final` (cash), through the legacy calls as the apps make them. */
  async completedTrip(passengerId: number, driverId: number, precio_final: number): Promise<{ id: number }> {
    const trip = await this.requestTrip(passengerId);
    await this.acceptTrip(trip.id, driverId);
    await this.startTrip(trip.id);
    await this.completeTrip(trip.id, precio_final);
    return trip;
  }
}

// A PNG written by hand (zlib's deflate and CRC-32): a document photo of known size, a colour per document.
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A 320×200 RGB PNG: a coloured card with a darker band, different for each `index`. */
function documentPng(index: number, width = 320, height = 200): Buffer {
  const colours = [
    [37, 99, 235],
    [15, 118, 110],
    [217, 119, 6],
    [124, 58, 237],
    [180, 35, 24],
    [100, 116, 139],
  ];
  const [r, g, b] = colours[index % colours.length]!;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    const band = y > height * 0.35 && y < height * 0.55;
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = band ? r! / 2 : r!;
      row[2 + x * 3] = band ? g! / 2 : g!;
      row[3 + x * 3] = band ? b! / 2 : b!;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
