import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FAVOURITES } from "../../src/domain/places/saved-places.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { registerUser } from "../support/fixtures.js";
import { createDriver, ESTADIO, LLERAS } from "../support/trips.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const PATH = "/user/lugares_favoritos.php";
const PLACE = "id tipo nombre direccion latitud longitud referencia";
const HOME = { tipo: "casa", direccion: "Carrera 43A # 1-50, El Poblado", latitud: 6.2087, longitud: -75.5661, referencia: "Torre 2" };
const WORK = { tipo: "trabajo", nombre: "Oficina", direccion: "Calle 50 # 46-36, La Candelaria", latitud: 6.2518, longitud: -75.5636 };

const save = (userId: number, fields: Record<string, unknown>) => app.legacy("POST", PATH, { usuario_id: userId, ...fields });
const listed = async (userId: number) => (await app.legacy("GET", PATH, { usuario_id: String(userId) })).body.lugares;
const stored = (userId: number) => app.db.savedPlace.count({ where: { usuario_id: userId } });

describe(`the legacy ${PATH}`, () => {
  it("saves a casa, a trabajo and favoritos, lists them under lugares in that order, and removes one by lugar_id", async () => {
    const user = await registerUser(app);
    const favourite = await save(user.id, {
      tipo: "favorito",
      nombre: "Donde mamá",
      direccion: "Calle 33 # 80-10, Laureles",
      latitud: "6.2446",
      longitud: "-75.5969",
    });
    expect(favourite.status, JSON.stringify(favourite.body)).toBe(200);
    const home = await save(user.id, HOME);
    expect(home.body).toEqual({
      success: true,
      message: "Lugar guardado",
      lugar: { id: expect.any(Number), ...HOME, nombre: "Casa" },
    });
    await save(user.id, WORK);

    expect(await listed(user.id)).toEqual([
      { id: home.body.lugar.id, ...HOME, nombre: "Casa" },
      { id: expect.any(Number), ...WORK, referencia: null },
      {
        id: favourite.body.lugar.id,
        tipo: "favorito",
        nombre: "Donde mamá",
        direccion: "Calle 33 # 80-10, Laureles",
        latitud: 6.2446,
        longitud: -75.5969,
        referencia: null,
      },
    ]);

    const removed = await app.legacy("DELETE", PATH, { usuario_id: user.id, lugar_id: favourite.body.lugar.id });
    expect(removed.body).toEqual({ success: true, message: "Lugar eliminado", lugar_id: favourite.body.lugar.id });
    expect((await listed(user.id)).map((place: { tipo: string }) => place.tipo)).toEqual(["casa", "trabajo"]);
  });

  it("keeps one casa and one trabajo: a new one replaces the old, even when two are saved at once", async () => {
    const user = await registerUser(app);
    await save(user.id, HOME);
    const moved = { ...HOME, direccion: "Calle 10 # 32-15, El Poblado", referencia: undefined };
    const answers = await Promise.all([save(user.id, moved), save(user.id, moved), save(user.id, WORK), save(user.id, WORK)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const places = await listed(user.id);
    expect(places.map((place: { tipo: string; direccion: string }) => [place.tipo, place.direccion])).toEqual([
      ["casa", "Calle 10 # 32-15, El Poblado"],
      ["trabajo", WORK.direccion],
    ]);
  });

  it(`keeps at most ${MAX_FAVOURITES} favoritos besides the casa and the trabajo, even when several are saved at once`, async () => {
    const user = await registerUser(app);
    await save(user.id, HOME);
    await save(user.id, WORK);
    const answers = await Promise.all(
      Array.from({ length: MAX_FAVOURITES + 2 }, (_, i) =>
        save(user.id, { tipo: "favorito", nombre: `Lugar ${i}`, direccion: `Calle ${i} # 1-1`, latitud: 6.2 + i / 1000, longitud: -75.57 }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(MAX_FAVOURITES).fill(200), 409, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body).toEqual({
      success: false,
      message: `Ya tienes ${MAX_FAVOURITES} lugares favoritos; quita uno para agregar otro`,
    });
    expect(await stored(user.id)).toBe(MAX_FAVOURITES + 2);
    // A casa still replaces the one there was.
    expect((await save(user.id, { ...HOME, direccion: "Otra casa" })).status).toBe(200);
  });

  it.each([
    ["POST", { tipo: "casa", latitud: 6.2, longitud: -75.5 }, 400, "El campo 'direccion' es obligatorio"],
    [
      "POST",
      { tipo: "oficina", direccion: "Calle 1", latitud: 6.2, longitud: -75.5 },
      400,
      "El campo 'tipo' debe ser uno de: casa, trabajo, favorito",
    ],
    [
      "POST",
      { tipo: "favorito", direccion: "Calle 1", latitud: 6.2, longitud: -75.5 },
      400,
      "El campo 'nombre' es obligatorio para un lugar favorito",
    ],
    ["POST", { tipo: "casa", direccion: "Calle 1", latitud: 95, longitud: -75.5 }, 400, "El campo 'latitud' debe estar entre -90 y 90"],
    ["POST", { tipo: "casa", direccion: "Calle 1", latitud: "seis", longitud: -75.5 }, 400, "El campo 'latitud' debe ser un número"],
    [
      "POST",
      { tipo: "casa", nombre: "x".repeat(61), direccion: "Calle 1", latitud: 6.2, longitud: -75.5 },
      400,
      "El campo 'nombre' admite como máximo 60 caracteres",
    ],
    ["DELETE", {}, 400, "El campo 'lugar_id' es obligatorio"],
    ["DELETE", { lugar_id: 999_999 }, 404, "No tienes un lugar guardado con id 999999"],
  ])("%s %j answers %i in Spanish, naming what is wrong, and writes nothing", async (method, fields, status, message) => {
    const user = await registerUser(app);
    const answer = await app.legacy(method, PATH, { usuario_id: user.id, ...fields });
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toEqual({ success: false, message });
    expect(await stored(user.id)).toBe(0);
  });

  it("shows and removes only the caller's own: somebody else's places are neither listed nor found", async () => {
    const [owner, other] = [await registerUser(app), await registerUser(app)];
    const home = (await save(owner.id, HOME)).body.lugar;
    expect(await listed(other.id)).toEqual([]);
    const foreign = await app.legacy("DELETE", PATH, { usuario_id: other.id, lugar_id: home.id });
    expect(foreign.status).toBe(404);
    expect(await stored(owner.id)).toBe(1);
  });
});

describe("saved places over GraphQL", () => {
  it("are saved, listed and removed by the signed-in caller", async () => {
    const user = await registerUser(app);
    const saved = await app.graphql(
      `mutation ($input: LugarFavoritoInput!) { savePlace(input: $input) { __typename ... on LugarFavorito { ${PLACE} } } }`,
      { input: WORK },
      user.id,
    );
    expect(saved.data.savePlace).toEqual({ __typename: "LugarFavorito", id: expect.any(Number), ...WORK, referencia: null });
    const list = await app.graphql(
      `query { savedPlaces { __typename ... on QuerySavedPlacesSuccess { data { ${PLACE} } } } }`,
      {},
      user.id,
    );
    expect(list.data.savedPlaces.data).toEqual([saved.data.savePlace].map(({ __typename, ...place }) => place));
    const removed = await app.graphql(
      `mutation ($id: Int!) { removeSavedPlace(lugar_id: $id) { __typename ... on Eliminado { id } } }`,
      { id: saved.data.savePlace.id },
      user.id,
    );
    expect(removed.data.removeSavedPlace).toEqual({ __typename: "Eliminado", id: saved.data.savePlace.id });
    expect(await stored(user.id)).toBe(0);
  });
});

describe("a trip asked for by saved places", () => {
  it("takes its pickup and destination from the passenger's places, over the legacy call and GraphQL", async () => {
    await createDriver(app, { at: LLERAS });
    const user = await registerUser(app);
    const home = (await save(user.id, { ...HOME, latitud: LLERAS.latitud, longitud: LLERAS.longitud })).body.lugar;
    const work = (await save(user.id, { ...WORK, latitud: ESTADIO.latitud, longitud: ESTADIO.longitud })).body.lugar;
    const asked = await app.legacy("POST", "/viajes/create_trip.php", {
      usuario_id: user.id,
      tipo_servicio: "auto",
      lugar_origen_id: home.id,
      lugar_destino_id: work.id,
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const trip = await app.db.trip.findUniqueOrThrow({ where: { id: asked.body.trip.id } });
    expect(trip).toMatchObject({
      origen_direccion: HOME.direccion,
      origen_latitud: LLERAS.latitud,
      origen_longitud: LLERAS.longitud,
      origen_referencia: HOME.referencia,
      destino_direccion: WORK.direccion,
      destino_latitud: ESTADIO.latitud,
      destino_longitud: ESTADIO.longitud,
    });
    await app.legacy("POST", "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Prueba" });

    const overGraphql = await app.graphql(
      `mutation ($input: CreateTripInput!) { createTrip(input: $input) { __typename ... on Viaje { origen { direccion } destino { direccion } } } }`,
      { input: { tipo_servicio: "auto", origen: LLERAS, lugar_destino_id: work.id } },
      user.id,
    );
    expect(overGraphql.data.createTrip).toEqual({
      __typename: "Viaje",
      origen: { direccion: LLERAS.direccion },
      destino: { direccion: WORK.direccion },
    });
  });

  it("takes them in create_trip_request.php's flat fields too, and still refuses a pickup sent neither way", async () => {
    await createDriver(app, { at: LLERAS });
    const user = await registerUser(app);
    const work = (await save(user.id, { ...WORK, latitud: ESTADIO.latitud, longitud: ESTADIO.longitud })).body.lugar;
    const request = (fields: Record<string, unknown>) =>
      app.legacy("POST", "/user/create_trip_request.php", { usuario_id: user.id, tipo_vehiculo: "carro", ...fields });
    const missing = await request({ longitud_origen: LLERAS.longitud, lugar_destino_id: work.id });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ success: false, message: "El campo 'latitud_origen' es obligatorio" });
    const both = await request({
      latitud_origen: LLERAS.latitud,
      longitud_origen: LLERAS.longitud,
      lugar_origen_id: work.id,
      lugar_destino_id: work.id,
    });
    expect(both.body).toEqual({ success: false, message: "El campo 'lugar_origen_id' envía origen o lugar_origen_id, no ambos" });
    expect(await app.db.trip.count({ where: { usuario_id: user.id } })).toBe(0);
    const asked = await request({
      latitud_origen: LLERAS.latitud,
      longitud_origen: LLERAS.longitud,
      direccion_origen: LLERAS.direccion,
      lugar_destino_id: work.id,
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.trip.destino).toEqual({
      direccion: WORK.direccion,
      latitud: ESTADIO.latitud,
      longitud: ESTADIO.longitud,
      referencia: null,
    });
  });

  it.each([
    [{ lugar_origen_id: "ajeno", destino: ESTADIO }, "El campo 'lugar_origen_id' no es uno de tus lugares guardados (ajeno)"],
    [{ origen: LLERAS, lugar_destino_id: 999_999 }, "El campo 'lugar_destino_id' no es uno de tus lugares guardados (999999)"],
    [
      { origen: LLERAS, lugar_origen_id: "propio", destino: ESTADIO },
      "El campo 'lugar_origen_id' envía origen o lugar_origen_id, no ambos",
    ],
    [{ destino: ESTADIO }, "El campo 'origen' es obligatorio"],
  ])("refuses %j with 400 naming the field, and creates no trip", async (fields, message) => {
    await createDriver(app, { at: LLERAS });
    const [user, other] = [await registerUser(app), await registerUser(app)];
    const own = (await save(user.id, { ...HOME, latitud: LLERAS.latitud, longitud: LLERAS.longitud })).body.lugar;
    const foreign = (await save(other.id, { ...HOME, latitud: LLERAS.latitud, longitud: LLERAS.longitud })).body.lugar;
    const named = Object.fromEntries(
      Object.entries(fields).map(([key, value]) => [key, value === "propio" ? own.id : value === "ajeno" ? foreign.id : value]),
    );
    const asked = await app.legacy("POST", "/viajes/create_trip.php", { usuario_id: user.id, tipo_servicio: "auto", ...named });
    expect(asked.status, JSON.stringify(asked.body)).toBe(400);
    expect(asked.body).toEqual({ success: false, message: message.replace("ajeno", String(foreign.id)) });
    expect(await app.db.trip.count({ where: { usuario_id: user.id } })).toBe(0);
  });
});

describe("an account's deletion", () => {
  it("erases the person's saved places and emergency contacts with the rest of their data", async () => {
    const user = await registerUser(app);
    await save(user.id, HOME);
    await app.legacy("POST", "/user/contactos_emergencia.php", { usuario_id: user.id, nombre: "Marta", telefono: "3001234567" });
    const admin = await newAdmin(app);
    const deleted = await app.graphql(`mutation ($id: Int!) { deleteUser(user_id: $id) { __typename } }`, { id: user.id }, admin.id);
    expect(deleted.data.deleteUser.__typename).not.toMatch(/Error$/);
    expect(await stored(user.id)).toBe(0);
    expect(await app.db.emergencyContact.count({ where: { usuario_id: user.id } })).toBe(0);
  });
});
