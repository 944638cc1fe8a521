import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSetting } from "../../src/domain/settings.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { registerUser } from "../support/fixtures.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

/** The app settings: a fixed list of keys, typed values, public ones for anyone, changes audited. */

let app: TestApp;
let admin: { id: number };
let passenger: { id: number };
beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
  passenger = await registerUser(app);
});
afterAll(() => app.close());

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", accept: "application/json" };
// AdminService.getAppConfig and updateAppConfig (lib/src/global/services/admin/admin_service.dart:265-342).
const read = (query: Record<string, string>) => app.legacy("GET", "/admin/app_config.php", query, JSON_HEADERS);
const write = (body: Record<string, unknown>) => app.legacy("PUT", "/admin/app_config.php", { admin_id: admin.id, ...body }, JSON_HEADERS);
const auditCount = () => app.db.auditEntry.count({ where: { accion: "actualizar_configuracion" } });

describe("GET /admin/app_config.php", () => {
  it("answers anyone the public settings with public=1, each with its type and default", async () => {
    const response = await read({ public: "1" });
    expect(response.status).toBe(200);
    expect(response.body.data.config).toEqual({
      app_nombre: "Viax",
      correo_soporte: null,
      telefono_soporte: null,
      aviso_app: null,
    });
    expect(response.body.data.config_detallada[0]).toEqual({
      clave: "app_nombre",
      valor: "Viax",
      tipo: "texto",
      categoria: "general",
      descripcion: expect.stringContaining("correos"),
      es_publica: 1,
      por_defecto: "Viax",
      fecha_actualizacion: null,
    });
  });

  it("answers all of them, private ones too, only to an administrator: public=0 is no way around it", async () => {
    const all = await read({ admin_id: String(admin.id) });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body.data.config)).toEqual(["app_nombre", "correo_soporte", "telefono_soporte", "aviso_app", "notas_internas"]);
    expect(all.body.data.config_detallada.find((s: { clave: string }) => s.clave === "notas_internas")).toMatchObject({ es_publica: 0 });

    const nobody = await read({ public: "0" });
    expect(nobody.status).toBe(401);
    expect(nobody.body).toEqual({ success: false, message: "Esta llamada debe indicar quién la hace" });
    const notAdmin = await read({ public: "0", admin_id: String(passenger.id) });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body.message).toBe("Esta operación es solo para administradores: pide solo los ajustes públicos");
    expect((await read({ public: "si" })).body.message).toBe("El campo 'public' debe ser 1 o 0");
  });
});

describe("PUT /admin/app_config.php", () => {
  it("stores a value checked by its type, audits it in the same change, and the service reads it back", async () => {
    const bad = await write({ clave: "correo_soporte", valor: "soporte en viax" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("El campo 'valor' no es un correo electrónico válido");
    const badPhone = await write({ clave: "telefono_soporte", valor: "llámenos" });
    expect(badPhone.body.message).toBe("El campo 'valor' no es un teléfono válido (7 a 15 dígitos)");
    const tooLong = await write({ clave: "app_nombre", valor: "V".repeat(61) });
    expect(tooLong.body.message).toBe("El campo 'valor' admite como máximo 60 caracteres");
    expect(await auditCount()).toBe(0);

    const saved = await write({ clave: "correo_soporte", valor: " Soporte@Viax.example " });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      success: true,
      message: "Configuración guardada",
      data: { clave: "correo_soporte", valor: "soporte@viax.example" },
    });
    expect(await appSetting(app.db, "correo_soporte")).toBe("soporte@viax.example");
    expect(await appSetting(app.db, "app_nombre")).toBe("Viax");
    const [entry] = await app.db.auditEntry.findMany({ where: { accion: "actualizar_configuracion" } });
    expect(entry).toMatchObject({
      admin_id: admin.id,
      objetivo_tipo: "configuracion",
      detalles: JSON.stringify({ clave: "correo_soporte", valor: "soporte@viax.example" }),
    });
    expect((await read({ public: "1" })).body.data.config.correo_soporte).toBe("soporte@viax.example");

    // The same value again changes nothing and records nothing.
    expect((await write({ clave: "correo_soporte", valor: "soporte@viax.example" })).status).toBe(200);
    expect(await auditCount()).toBe(1);
    // Empty returns it to its default, which is recorded too.
    expect((await write({ clave: "correo_soporte", valor: "" })).status).toBe(200);
    expect(await appSetting(app.db, "correo_soporte")).toBeNull();
    expect(await auditCount()).toBe(2);
    // A name cannot be emptied.
    expect((await write({ clave: "app_nombre", valor: "  " })).body.message).toBe("El campo 'valor' no puede estar vacío");
  });

  it("refuses keys it does not have, pointing to where the platform decides those it has elsewhere", async () => {
    const unknown = await write({ clave: "mantenimiento_activo", valor: "true" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(
      "El campo 'clave' no existe; los ajustes son: app_nombre, correo_soporte, telefono_soporte, aviso_app, notas_internas",
    );
    const commission = await write({ clave: "comision_plataforma", valor: "20" });
    expect(commission.body.message).toBe(
      "El campo 'clave' no es un ajuste de la app: las tarifas de cada tipo de vehículo se cambian en " +
        "/admin/update_pricing_config.php o con la mutación updatePricingRate",
    );
    const price = await write({ clave: "precio_base_km", valor: "2500" });
    expect(price.body.message).toContain("/admin/update_pricing_config.php");
    expect(
      await app.db.appSetting.count({ where: { clave: { in: ["mantenimiento_activo", "comision_plataforma", "precio_base_km"] } } }),
    ).toBe(0);
  });

  it("takes the other fields the app sends only as the setting already is, never dropping a change", async () => {
    const asItIs = await write({ clave: "aviso_app", valor: "Mantenimiento el domingo de 2 a 4", tipo: "texto", es_publica: "1" });
    expect(asItIs.status).toBe(200);
    const hidden = await write({ clave: "aviso_app", valor: "Otro aviso", es_publica: "0" });
    expect(hidden.status).toBe(400);
    expect(hidden.body.message).toBe("El campo 'es_publica' no se puede cambiar: 'aviso_app' es público, y eso lo fija la plataforma");
    const retyped = await write({ clave: "aviso_app", valor: "Otro aviso", tipo: "json" });
    expect(retyped.body.message).toBe("El campo 'tipo' no se puede cambiar: 'aviso_app' es de tipo texto, y eso lo fija la plataforma");
    expect(await appSetting(app.db, "aviso_app")).toBe("Mantenimiento el domingo de 2 a 4");
  });

  it("is for administrators only", async () => {
    const asPassenger = await write({ admin_id: passenger.id, clave: "aviso_app", valor: "Hola" });
    expect(asPassenger.status).toBe(403);
    const nobody = await app.legacy("PUT", "/admin/app_config.php", { clave: "aviso_app", valor: "Hola" }, JSON_HEADERS);
    expect(nobody.status).toBe(401);
  });
});

describe("over GraphQL", () => {
  const SETTINGS = `query ($publicas: Boolean) {
    appSettings(publicas: $publicas) { __typename ... on QueryAppSettingsSuccess { data { clave valor es_publica } } ... on Error { message } }
  }`;

  it("reads the public settings to anyone signed in, all of them to administrators, and changes one", async () => {
    const publicOnes = await app.graphql(SETTINGS, { publicas: true }, passenger.id);
    expect(publicOnes.data.appSettings.data.every((s: { es_publica: boolean }) => s.es_publica)).toBe(true);
    expect((await app.graphql(SETTINGS, {}, passenger.id)).data.appSettings.__typename).toBe("ForbiddenError");
    expect((await app.graphql(SETTINGS, {}, admin.id)).data.appSettings.data).toHaveLength(5);

    const { data } = await app.graphql(
      `mutation ($input: AppSettingInput!) { updateAppSetting(input: $input) { __typename ... on AjusteApp { clave valor actualizado_en } } }`,
      { input: { clave: "app_nombre", valor: "Viax Medellín" } },
      admin.id,
    );
    expect(data.updateAppSetting).toMatchObject({ __typename: "AjusteApp", clave: "app_nombre", valor: "Viax Medellín" });
    expect(await appSetting(app.db, "app_nombre")).toBe("Viax Medellín");
  });
});
