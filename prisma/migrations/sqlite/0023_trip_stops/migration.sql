-- CreateTable
CREATE TABLE "paradas_viaje" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "viaje_id" INTEGER NOT NULL,
    "orden" INTEGER NOT NULL,
    "direccion" TEXT NOT NULL,
    "latitud" REAL NOT NULL,
    "longitud" REAL NOT NULL,
    "referencia" TEXT,
    "llegada_en" DATETIME,
    "salida_en" DATETIME,
    CONSTRAINT "paradas_viaje_viaje_id_fkey" FOREIGN KEY ("viaje_id") REFERENCES "viajes" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_reservas" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "usuario_id" INTEGER NOT NULL,
    "estado" TEXT NOT NULL DEFAULT 'programada',
    "fecha_programada" DATETIME NOT NULL,
    "tipo_servicio" TEXT NOT NULL,
    "metodo_pago" TEXT NOT NULL,
    "origen_direccion" TEXT NOT NULL,
    "origen_latitud" REAL NOT NULL,
    "origen_longitud" REAL NOT NULL,
    "origen_referencia" TEXT,
    "destino_direccion" TEXT NOT NULL,
    "destino_latitud" REAL NOT NULL,
    "destino_longitud" REAL NOT NULL,
    "destino_referencia" TEXT,
    "paradas" TEXT NOT NULL DEFAULT '[]',
    "precio_estimado" INTEGER NOT NULL,
    "distancia_km" REAL NOT NULL,
    "duracion_estimada_minutos" INTEGER NOT NULL,
    "cotizacion_id" TEXT,
    "conductor_id" INTEGER,
    "comprometida_en" DATETIME,
    "viaje_id" INTEGER,
    "recordatorio_1h_en" DATETIME,
    "recordatorio_15m_en" DATETIME,
    "aviso_conductor_en" DATETIME,
    "motivo_cancelacion" TEXT,
    "cancelada_por" TEXT,
    "fecha_cancelacion" DATETIME,
    "creada_en" DATETIME NOT NULL,
    "actualizada_en" DATETIME NOT NULL,
    CONSTRAINT "reservas_viaje_id_fkey" FOREIGN KEY ("viaje_id") REFERENCES "viajes" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_reservas" ("actualizada_en", "aviso_conductor_en", "cancelada_por", "comprometida_en", "conductor_id", "cotizacion_id", "creada_en", "destino_direccion", "destino_latitud", "destino_longitud", "destino_referencia", "distancia_km", "duracion_estimada_minutos", "estado", "fecha_cancelacion", "fecha_programada", "id", "metodo_pago", "motivo_cancelacion", "origen_direccion", "origen_latitud", "origen_longitud", "origen_referencia", "precio_estimado", "recordatorio_15m_en", "recordatorio_1h_en", "tipo_servicio", "usuario_id", "viaje_id") SELECT "actualizada_en", "aviso_conductor_en", "cancelada_por", "comprometida_en", "conductor_id", "cotizacion_id", "creada_en", "destino_direccion", "destino_latitud", "destino_longitud", "destino_referencia", "distancia_km", "duracion_estimada_minutos", "estado", "fecha_cancelacion", "fecha_programada", "id", "metodo_pago", "motivo_cancelacion", "origen_direccion", "origen_latitud", "origen_longitud", "origen_referencia", "precio_estimado", "recordatorio_15m_en", "recordatorio_1h_en", "tipo_servicio", "usuario_id", "viaje_id" FROM "reservas";
DROP TABLE "reservas";
ALTER TABLE "new_reservas" RENAME TO "reservas";
CREATE UNIQUE INDEX "reservas_cotizacion_id_key" ON "reservas"("cotizacion_id");
CREATE UNIQUE INDEX "reservas_viaje_id_key" ON "reservas"("viaje_id");
CREATE INDEX "reservas_estado_fecha_programada_idx" ON "reservas"("estado", "fecha_programada");
CREATE INDEX "reservas_usuario_id_estado_fecha_programada_idx" ON "reservas"("usuario_id", "estado", "fecha_programada");
CREATE INDEX "reservas_conductor_id_estado_fecha_programada_idx" ON "reservas"("conductor_id", "estado", "fecha_programada");
CREATE TABLE "new_cotizaciones" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "usuario_id" INTEGER NOT NULL,
    "tipo_servicio" TEXT NOT NULL,
    "metodo_pago" TEXT NOT NULL,
    "origen_latitud" REAL NOT NULL,
    "origen_longitud" REAL NOT NULL,
    "destino_latitud" REAL NOT NULL,
    "destino_longitud" REAL NOT NULL,
    "fecha_programada" DATETIME,
    "paradas" TEXT NOT NULL DEFAULT '[]',
    "precio_estimado" INTEGER NOT NULL,
    "tarifa_base" INTEGER NOT NULL,
    "por_distancia" INTEGER NOT NULL,
    "por_tiempo" INTEGER NOT NULL,
    "recargo" TEXT,
    "por_recargo" INTEGER NOT NULL,
    "multiplicador_demanda" REAL NOT NULL,
    "distancia_km" REAL NOT NULL,
    "duracion_estimada_minutos" INTEGER NOT NULL,
    "creada_en" DATETIME NOT NULL,
    "vence_en" DATETIME NOT NULL
);
INSERT INTO "new_cotizaciones" ("creada_en", "destino_latitud", "destino_longitud", "distancia_km", "duracion_estimada_minutos", "fecha_programada", "id", "metodo_pago", "multiplicador_demanda", "origen_latitud", "origen_longitud", "por_distancia", "por_recargo", "por_tiempo", "precio_estimado", "recargo", "tarifa_base", "tipo_servicio", "usuario_id", "vence_en") SELECT "creada_en", "destino_latitud", "destino_longitud", "distancia_km", "duracion_estimada_minutos", "fecha_programada", "id", "metodo_pago", "multiplicador_demanda", "origen_latitud", "origen_longitud", "por_distancia", "por_recargo", "por_tiempo", "precio_estimado", "recargo", "tarifa_base", "tipo_servicio", "usuario_id", "vence_en" FROM "cotizaciones";
DROP TABLE "cotizaciones";
ALTER TABLE "new_cotizaciones" RENAME TO "cotizaciones";
CREATE INDEX "cotizaciones_usuario_id_vence_en_idx" ON "cotizaciones"("usuario_id", "vence_en");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "paradas_viaje_viaje_id_orden_key" ON "paradas_viaje"("viaje_id", "orden");

