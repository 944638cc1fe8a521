import { getNamedType, isInputObjectType, isObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/graphql/schema.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { dartPost, double } from "../journeys/dart.js";

/**
 * The rates as pingo's PricingManagementScreen reads and saves them: surcharges as percentages
 * over rates kept as shares, and the fields the platform fixes shown at what it applies.
 */

let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const sheets = async () => {
  const response = await app.legacy("GET", "/admin/get_pricing_configs.php", { admin_id: String(admin.id) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as Array<Record<string, any>>;
};
const sheetOf = async (tipo: string) => (await sheets()).find((sheet) => sheet.tipo_vehiculo === tipo)!;
const save = (body: Record<string, unknown>) => app.legacy("POST", "/admin/update_pricing_config.php", { admin_id: admin.id, ...body });
const rateOf = (tipo: string) => app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: tipo } });
const rateAudits = () => app.db.auditEntry.count({ where: { accion: "actualizar_tarifa" } });

/** What _EditPricingDialogState._saveChanges sends for a card it was shown: every field, doubles, the waiting minutes as an int. */
function asSent(sheet: Record<string, any>) {
  const { tipo_vehiculo: _tipo, activo: _activo, fecha_actualizacion: _date, tarifa_maxima, distancia_maxima, ...fields } = sheet;
  // A missing maximum fills its field as ''; the optional tarifa_maxima is then left out, distancia_maxima goes as 0.
  return { ...fields, distancia_maxima: distancia_maxima ?? 0 };
}

describe("the pricing screen's rates", () => {
  it("shows every vehicle type's rates with the surcharges as percentages and what the platform fixes", async () => {
    const all = await sheets();
    expect(all.map((sheet) => sheet.tipo_vehiculo)).toEqual(["auto", "moto", "mototaxi"]);
    expect(all.find((sheet) => sheet.tipo_vehiculo === "moto")).toEqual({
      id: expect.any(Number),
      tipo_vehiculo: "moto",
      activo: 1,
      tarifa_base: 4000,
      tarifa_minima: 6000,
      tarifa_maxima: null,
      costo_por_km: 2000,
      costo_por_minuto: 250,
      recargo_hora_pico: 15,
      recargo_nocturno: 20,
      recargo_festivo: 0,
      descuento_distancia_larga: 0,
      umbral_km_descuento: 0,
      comision_plataforma: 15,
      comision_metodo_pago: 2.5,
      distancia_minima: 0,
      distancia_maxima: null,
      tiempo_espera_gratis: 0,
      costo_tiempo_espera: 0,
      hora_pico_inicio_manana: "07:00:00",
      hora_pico_fin_manana: "09:00:00",
      hora_pico_inicio_tarde: "17:00:00",
      hora_pico_fin_tarde: "19:00:00",
      hora_nocturna_inicio: "22:00:00",
      hora_nocturna_fin: "06:00:00",
      notas: expect.stringContaining("la del método de pago además sobre los pagados con billetera digital o tarjeta"),
      fecha_actualizacion: expect.any(String),
    });
    expect(all.find((sheet) => sheet.tipo_vehiculo === "mototaxi")).toMatchObject({ recargo_hora_pico: 18, recargo_nocturno: 22 });
  });

  it("saves a sheet sent back as shown without changing or recording anything", async () => {
    const before = await rateOf("auto");
    const audits = await rateAudits();
    const response = await save(asSent(await sheetOf("auto")));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(await rateOf("auto")).toEqual(before);
    expect(await rateAudits()).toBe(audits);
  });

  it("applies a percentage as a share and back, audited, with a Dart double's encoding", async () => {
    const sent = asSent(await sheetOf("mototaxi"));
    const body = Object.fromEntries(
      Object.entries({ ...sent, recargo_hora_pico: 18.5, costo_por_km: 2600 }).map(([key, value]) => [
        key,
        typeof value === "number" && !["id", "tiempo_espera_gratis"].includes(key) ? double(value) : value,
      ]),
    );
    // jsonEncode writes 2600.0 and 0.0.
    const response = await dartPost(app, "/admin/update_pricing_config.php", { admin_id: admin.id, ...body });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ recargo_hora_pico: 18.5, costo_por_km: 2600, recargo_nocturno: 22 });
    expect(await rateOf("mototaxi")).toMatchObject({ recargo_pico: 0.185, precio_km: 2600, recargo_nocturno: 0.22 });
    expect((await sheetOf("mototaxi")).recargo_hora_pico).toBe(18.5);
    const entry = await app.db.auditEntry.findFirstOrThrow({ where: { accion: "actualizar_tarifa" }, orderBy: { id: "desc" } });
    expect(JSON.parse(entry.detalles!)).toEqual({ tipo_vehiculo: "mototaxi", precio_km: 2600, recargo_pico: 0.185 });
  });

  it("refuses, naming it, a field the platform fixes sent with another value, and changes nothing", async () => {
    const sheet = asSent(await sheetOf("moto"));
    const before = await rateOf("moto");
    const cases: Array<[string, unknown, string]> = [
      ["recargo_festivo", 10, "no se cobra recargo en festivos (0 %)"],
      ["tarifa_maxima", 50000, "la plataforma no pone tope a las tarifas (sin límite, 0)"],
      [
        "hora_pico_inicio_manana",
        "06:30:00",
        "las horas pico (entre semana de 07:00 a 09:00 y de 17:00 a 19:00) son fijas en el cálculo de tarifas",
      ],
      ["tiempo_espera_gratis", 5, "la espera no se cobra (0)"],
      ["notas", "Tarifa especial", "las notas describen lo que la plataforma aplica y no se editan"],
    ];
    for (const [field, value, why] of cases) {
      const response = await save({ ...sheet, tarifa_base: 4500, [field]: value });
      expect(response.status, field).toBe(400);
      expect(response.body.message).toBe(`El campo '${field}' no se puede cambiar: ${why}`);
    }
    expect(await rateOf("moto")).toEqual(before);
    // The hours also go as the dialog's defaults write them.
    expect((await save({ ...sheet, hora_nocturna_inicio: "22:00" })).status).toBe(200);
  });

  it("changes the commissions, audited, and refuses two that together pass 100 %", async () => {
    const sheet = asSent(await sheetOf("auto"));
    const saved = await save({ ...sheet, comision_plataforma: 12.5, comision_metodo_pago: 3 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await rateOf("auto")).toMatchObject({ comision_plataforma: 12.5, comision_metodo_pago: 3 });
    const entry = await app.db.auditEntry.findFirstOrThrow({ where: { accion: "actualizar_tarifa" }, orderBy: { id: "desc" } });
    expect(JSON.parse(entry.detalles!)).toEqual({ tipo_vehiculo: "auto", comision_plataforma: 12.5, comision_metodo_pago: 3 });
    const over = await save({ ...sheet, comision_plataforma: 90, comision_metodo_pago: 20 });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe("El campo 'comision_metodo_pago' con la comisión de la plataforma no puede pasar de 100 % del viaje");
    expect((await save({ ...sheet, comision_plataforma: 101 })).body.message).toBe(
      "El campo 'comision_plataforma' debe estar entre 0 y 100 (%)",
    );
    expect(await rateOf("auto")).toMatchObject({ comision_plataforma: 12.5, comision_metodo_pago: 3 });
  });

  it("checks the rates it applies and the record it names", async () => {
    const sheet = asSent(await sheetOf("moto"));
    const over = await save({ ...sheet, recargo_nocturno: 150 });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe("El campo 'recargo_nocturno' debe estar entre 0 y 100 (%)");
    expect((await save({ ...sheet, tarifa_base: -1 })).body.message).toBe("El campo 'tarifa_base' no puede ser negativo");
    const missing = await save({ ...sheet, id: 987654 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("No existe una tarifa con id 987654");
  });

  it("is the same over GraphQL, for administrators only", async () => {
    const { data } = await app.graphql(
      `mutation ($input: HojaTarifasInput!) {
        updatePricingSheet(input: $input) { __typename ... on HojaTarifas { recargo_nocturno } ... on Error { message } }
      }`,
      { input: { id: (await rateOf("auto")).id, recargo_nocturno: 30 } },
      admin.id,
    );
    expect(data.updatePricingSheet).toEqual({ __typename: "HojaTarifas", recargo_nocturno: 30 });
    expect((await rateOf("auto")).recargo_nocturno).toBe(0.3);
    const driver = await app.db.user.create({
      data: { email: "tarifas.pasajero@example.com", nombre: "P", apellido: "Q", telefono: "3001112233", password_hash: "x" },
    });
    const refused = await app.graphql(`{ pricingSheets { __typename } }`, {}, driver.id);
    expect(refused.data.pricingSheets.__typename).toBe("ForbiddenError");
  });

  it("describes as fixed exactly the fields a save refuses to change, on the sheet and in what is saved", async () => {
    const input = schema.getType("HojaTarifasInput");
    const sheet = schema.getType("HojaTarifas");
    if (!isInputObjectType(input) || !isObjectType(sheet)) throw new Error("the pricing screen's types are missing");
    const { id } = await rateOf("mototaxi");
    const shown = async () => {
      const { data } = await app.graphql(
        `{ pricingSheets { ... on QueryPricingSheetsSuccess { data { ${Object.keys(input.getFields()).join(" ")} } } } }`,
        {},
        admin.id,
      );
      return data.pricingSheets.data.find((row: { id: number }) => row.id === id) as Record<string, number | string | null>;
    };
    const outcomes: Record<string, { refused: boolean; described: boolean; shownAs: boolean }> = {};
    for (const [name, field] of Object.entries(input.getFields())) {
      if (name === "id") continue;
      const now = (await shown())[name];
      const kind = getNamedType(field.type).name;
      // Another value than the one shown, of the field's own kind and within its bounds.
      const other = kind === "String" ? (name === "notas" ? "Otra nota" : "05:00:00") : typeof now === "number" ? now + 1 : 1;
      const { data } = await app.graphql(
        `mutation ($input: HojaTarifasInput!) { updatePricingSheet(input: $input) { __typename ... on ValidationError { field } } }`,
        { input: { id, [name]: other } },
        admin.id,
      );
      const answer = data.updatePricingSheet;
      expect([`HojaTarifas`, `ValidationError:${name}`], `${name}: ${JSON.stringify(answer)}`).toContain(
        answer.field ? `${answer.__typename}:${answer.field}` : answer.__typename,
      );
      outcomes[name] = {
        refused: answer.__typename === "ValidationError",
        described: field.description?.includes("Fijo en la plataforma") === true,
        shownAs: sheet.getFields()[name]?.description?.includes("Fijo en la plataforma") === true,
      };
    }
    // A save changes the rates and both commissions; the rest it refuses, and only those are described as fixed.
    expect(
      Object.entries(outcomes)
        .filter(([, o]) => !o.refused)
        .map(([name]) => name),
    ).toEqual(expect.arrayContaining(["tarifa_base", "comision_plataforma", "comision_metodo_pago"]));
    for (const [name, { refused, described, shownAs }] of Object.entries(outcomes)) {
      expect({ name, described, shownAs }).toEqual({ name, described: refused, shownAs: refused });
    }
  });
});
