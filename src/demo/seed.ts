import type { Tx } from "../db/client.js";
import { holdAcrossProcesses, SET_UP } from "../db/locks.js";
import { hashPassword } from "../domain/accounts/password.js";
import type { Deps } from "../domain/deps.js";
import { recordPhotos } from "../domain/drivers/document-history.js";
import { documentFolder, photosAmong } from "../domain/drivers/documents.js";
import { DEMO_ADMIN, DEMO_COMPANY, DEMO_DRIVERS, DEMO_PASSENGERS, DEMO_PASSWORDS, DEMO_PHOTO_PNG } from "./demo-data.js";

const YEAR_MS = 365 * 24 * 3600 * 1000;

interface Person {
  email: string;
  nombre: string;
  apellido: string;
  telefono: string;
}

/**
 * Creates the demo accounts, or brings them back to their demo state. Safe to run any number of
 * times, in any number of processes at once: one loads them while the others wait, then find them
 * there (so a fresh database always gives them the same ids).
 */
export async function seedDemoData(deps: Deps): Promise<{ users: number }> {
  const now = deps.clock.now();
  const upsertUser = async (tx: Tx, { email, nombre, apellido, telefono }: Person, tipo_usuario: string, password: string) => {
    const existing = await tx.user.findUnique({ where: { email } });
    if (existing) return existing;
    const password_hash = await hashPassword(password, deps.bcryptCost);
    return tx.user.create({ data: { email, nombre, apellido, telefono, tipo_usuario, es_verificado: true, password_hash } });
  };

  await deps.db.$transaction(async (tx) => {
    await holdAcrossProcesses(tx, deps.provider, SET_UP.demoData);
    await upsertUser(tx, DEMO_ADMIN, "admin", DEMO_PASSWORDS.admin);

    for (const passenger of DEMO_PASSENGERS) {
      const user = await upsertUser(tx, passenger, "pasajero", DEMO_PASSWORDS.passenger);
      const { direccion, latitud, longitud } = passenger;
      const location = { direccion, latitud, longitud, ciudad: "Medellín", departamento: "Antioquia", pais: "Colombia" };
      const primary = await tx.userLocation.findFirst({ where: { usuario_id: user.id, es_principal: true } });
      if (!primary) await tx.userLocation.create({ data: { ...location, usuario_id: user.id, es_principal: true } });
    }

    const documentsValidUntil = new Date(now.getTime() + YEAR_MS);
    for (const driver of DEMO_DRIVERS) {
      const user = await upsertUser(tx, driver, "conductor", DEMO_PASSWORDS.driver);
      // Real files behind the demo drivers' document photos, in each driver's own folder, so that the links open.
      const photo = (name: string) => deps.uploads.save(`${documentFolder(user.id)}demo-${name}.png`, DEMO_PHOTO_PNG);
      const profile = {
        nombre_completo: `${driver.nombre} ${driver.apellido}`,
        telefono: driver.telefono,
        direccion: "Medellín, Antioquia",
        estado_revision: "aprobado",
        aprobado: true,
        motivo_rechazo: null,
        fecha_solicitud: now,
        fecha_aprobacion: now,
      };
      await tx.driverProfile.upsert({ where: { conductor_id: user.id }, create: { ...profile, conductor_id: user.id }, update: profile });
      const license = {
        numero: `LIC-${driver.placa}`,
        tipo: driver.licencia,
        fecha_emision: new Date(now.getTime() - 2 * YEAR_MS),
        fecha_expiracion: new Date(now.getTime() + 5 * YEAR_MS),
        imagen_frente: await photo("licencia-frente"),
        imagen_reverso: await photo("licencia-reverso"),
      };
      await tx.license.upsert({ where: { conductor_id: user.id }, create: { ...license, conductor_id: user.id }, update: license });
      const vehicle = {
        marca: driver.marca,
        modelo: driver.modelo,
        anio: 2022,
        placa: driver.placa,
        color: "Rojo",
        capacidad_pasajeros: driver.capacidad,
        tipo: driver.tipo,
        soat_numero: `SOAT-${driver.placa}`,
        soat_vencimiento: documentsValidUntil,
        tecnomecanica_numero: `RTM-${driver.placa}`,
        tecnomecanica_vencimiento: documentsValidUntil,
        tarjeta_propiedad_numero: `TP-${driver.placa}`,
        foto_vehiculo: await photo("vehiculo"),
        foto_tarjeta_propiedad: await photo("tarjeta"),
        foto_soat: await photo("soat"),
        foto_tecnomecanica: await photo("tecnomecanica"),
      };
      await tx.vehicle.upsert({ where: { conductor_id: user.id }, create: { ...vehicle, conductor_id: user.id }, update: vehicle });
      await recordPhotos(tx, user.id, { ...photosAmong("license", license), ...photosAmong("vehicle", vehicle) }, now);
      const status = { disponible: true, latitud: driver.latitud, longitud: driver.longitud, posicion_en: now };
      await tx.driverStatus.upsert({ where: { conductor_id: user.id }, create: { ...status, conductor_id: user.id }, update: status });
      const open = await tx.onlinePeriod.findFirst({ where: { conductor_id: user.id, fin: null } });
      if (!open) await tx.onlinePeriod.create({ data: { conductor_id: user.id, inicio: now } });
    }

    const { empresa, porcentaje, gestor, conductores } = DEMO_COMPANY;
    const company =
      (await tx.company.findUnique({ where: { nit: empresa.nit } })) ??
      (await tx.company.create({ data: { ...empresa, porcentaje_comision: porcentaje, revisada_en: now } }));
    const share = await tx.companyShareChange.findFirst({ where: { empresa_id: company.id } });
    if (!share) await tx.companyShareChange.create({ data: { empresa_id: company.id, porcentaje, desde: new Date(0) } });
    const manager = await upsertUser(tx, gestor, "empresa", DEMO_PASSWORDS.manager);
    await tx.user.update({ where: { id: manager.id }, data: { empresa_id: company.id } });
    await tx.user.updateMany({ where: { email: { in: conductores } }, data: { empresa_id: company.id } });
  });
  return { users: 2 + DEMO_PASSENGERS.length + DEMO_DRIVERS.length };
}
