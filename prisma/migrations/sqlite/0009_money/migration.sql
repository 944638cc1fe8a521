-- CreateTable
CREATE TABLE "cuentas_libro" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "codigo" TEXT NOT NULL,
    "conductor_id" INTEGER,
    "saldo" INTEGER NOT NULL DEFAULT 0,
    "actualizado_en" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "asientos" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "clave" TEXT NOT NULL,
    "tipo" TEXT NOT NULL,
    "descripcion" TEXT NOT NULL,
    "viaje_id" INTEGER,
    "creado_por" INTEGER,
    "creado_en" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "movimientos" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "asiento_id" INTEGER NOT NULL,
    "cuenta_id" INTEGER NOT NULL,
    "concepto" TEXT NOT NULL,
    "monto" INTEGER NOT NULL,
    CONSTRAINT "movimientos_asiento_id_fkey" FOREIGN KEY ("asiento_id") REFERENCES "asientos" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "movimientos_cuenta_id_fkey" FOREIGN KEY ("cuenta_id") REFERENCES "cuentas_libro" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_viajes" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "usuario_id" INTEGER,
    "conductor_id" INTEGER,
    "tipo_servicio" TEXT NOT NULL,
    "estado" TEXT NOT NULL DEFAULT 'pendiente',
    "origen_direccion" TEXT NOT NULL,
    "origen_latitud" REAL NOT NULL,
    "origen_longitud" REAL NOT NULL,
    "origen_referencia" TEXT,
    "destino_direccion" TEXT NOT NULL,
    "destino_latitud" REAL NOT NULL,
    "destino_longitud" REAL NOT NULL,
    "destino_referencia" TEXT,
    "precio_estimado" INTEGER NOT NULL,
    "multiplicador_demanda" REAL NOT NULL DEFAULT 1,
    "metodo_pago" TEXT NOT NULL DEFAULT 'efectivo',
    "porcentaje_comision" REAL NOT NULL DEFAULT 15,
    "porcentaje_comision_metodo" REAL NOT NULL DEFAULT 0,
    "precio_final" INTEGER,
    "comision_plataforma" INTEGER,
    "comision_metodo_pago" INTEGER,
    "ganancia_conductor" INTEGER,
    "referencia_pago" TEXT,
    "distancia_km" REAL NOT NULL,
    "duracion_estimada_minutos" INTEGER NOT NULL,
    "fecha_solicitud" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fecha_aceptacion" DATETIME,
    "fecha_en_ruta" DATETIME,
    "fecha_inicio" DATETIME,
    "fecha_fin" DATETIME,
    "fecha_cancelacion" DATETIME,
    "motivo_cancelacion" TEXT,
    "cancelado_por" TEXT,
    "calificacion_conductor" INTEGER,
    "comentario_conductor" TEXT,
    "calificacion_usuario" INTEGER,
    "comentario_usuario" TEXT,
    "hora_semana" INTEGER,
    "velocidad_real_kmh" REAL,
    "proxima_ola" DATETIME,
    "actualizado_en" DATETIME NOT NULL,
    CONSTRAINT "viajes_usuario_id_fkey" FOREIGN KEY ("usuario_id") REFERENCES "usuarios" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "viajes_conductor_id_fkey" FOREIGN KEY ("conductor_id") REFERENCES "usuarios" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_viajes" ("actualizado_en", "calificacion_conductor", "calificacion_usuario", "cancelado_por", "comentario_conductor", "comentario_usuario", "comision_plataforma", "conductor_id", "destino_direccion", "destino_latitud", "destino_longitud", "destino_referencia", "distancia_km", "duracion_estimada_minutos", "estado", "fecha_aceptacion", "fecha_cancelacion", "fecha_en_ruta", "fecha_fin", "fecha_inicio", "fecha_solicitud", "ganancia_conductor", "hora_semana", "id", "motivo_cancelacion", "multiplicador_demanda", "origen_direccion", "origen_latitud", "origen_longitud", "origen_referencia", "precio_estimado", "precio_final", "proxima_ola", "tipo_servicio", "usuario_id", "velocidad_real_kmh") SELECT "actualizado_en", "calificacion_conductor", "calificacion_usuario", "cancelado_por", "comentario_conductor", "comentario_usuario", CAST(ROUND("comision_plataforma") AS INTEGER), "conductor_id", "destino_direccion", "destino_latitud", "destino_longitud", "destino_referencia", "distancia_km", "duracion_estimada_minutos", "estado", "fecha_aceptacion", "fecha_cancelacion", "fecha_en_ruta", "fecha_fin", "fecha_inicio", "fecha_solicitud", CAST(ROUND("ganancia_conductor") AS INTEGER), "hora_semana", "id", "motivo_cancelacion", "multiplicador_demanda", "origen_direccion", "origen_latitud", "origen_longitud", "origen_referencia", CAST(ROUND("precio_estimado") AS INTEGER), CAST(ROUND("precio_final") AS INTEGER), "proxima_ola", "tipo_servicio", "usuario_id", "velocidad_real_kmh" FROM "viajes";
DROP TABLE "viajes";
ALTER TABLE "new_viajes" RENAME TO "viajes";
CREATE INDEX "viajes_usuario_id_estado_fecha_solicitud_idx" ON "viajes"("usuario_id", "estado", "fecha_solicitud");
CREATE INDEX "viajes_conductor_id_estado_fecha_solicitud_idx" ON "viajes"("conductor_id", "estado", "fecha_solicitud");
CREATE INDEX "viajes_conductor_id_fecha_fin_idx" ON "viajes"("conductor_id", "fecha_fin");
CREATE INDEX "viajes_estado_tipo_servicio_idx" ON "viajes"("estado", "tipo_servicio");
CREATE INDEX "viajes_estado_fecha_fin_idx" ON "viajes"("estado", "fecha_fin");
CREATE INDEX "viajes_estado_hora_semana_idx" ON "viajes"("estado", "hora_semana");
CREATE INDEX "viajes_estado_proxima_ola_idx" ON "viajes"("estado", "proxima_ola");
CREATE TABLE "new_tarifas" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tipo_vehiculo" TEXT NOT NULL,
    "tarifa_base" REAL NOT NULL,
    "precio_km" REAL NOT NULL,
    "precio_minuto" REAL NOT NULL,
    "tarifa_minima" REAL NOT NULL,
    "recargo_pico" REAL NOT NULL,
    "recargo_nocturno" REAL NOT NULL,
    "comision_plataforma" REAL NOT NULL DEFAULT 15,
    "comision_metodo_pago" REAL NOT NULL DEFAULT 2.5,
    "actualizado_en" DATETIME NOT NULL
);
INSERT INTO "new_tarifas" ("actualizado_en", "id", "precio_km", "precio_minuto", "recargo_nocturno", "recargo_pico", "tarifa_base", "tarifa_minima", "tipo_vehiculo") SELECT "actualizado_en", "id", "precio_km", "precio_minuto", "recargo_nocturno", "recargo_pico", "tarifa_base", "tarifa_minima", "tipo_vehiculo" FROM "tarifas";
DROP TABLE "tarifas";
ALTER TABLE "new_tarifas" RENAME TO "tarifas";
CREATE UNIQUE INDEX "tarifas_tipo_vehiculo_key" ON "tarifas"("tipo_vehiculo");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "cuentas_libro_codigo_key" ON "cuentas_libro"("codigo");

-- CreateIndex
CREATE UNIQUE INDEX "cuentas_libro_conductor_id_key" ON "cuentas_libro"("conductor_id");

-- CreateIndex
CREATE UNIQUE INDEX "asientos_clave_key" ON "asientos"("clave");

-- CreateIndex
CREATE INDEX "asientos_creado_en_idx" ON "asientos"("creado_en");

-- CreateIndex
CREATE INDEX "movimientos_asiento_id_idx" ON "movimientos"("asiento_id");

-- CreateIndex
CREATE INDEX "movimientos_cuenta_id_asiento_id_idx" ON "movimientos"("cuenta_id", "asiento_id");


-- Amounts were kept in fractions of a peso: now whole pesos, the driver's net what the rounded
-- commission leaves, and no payment commission (every earlier trip was paid in cash).
UPDATE "viajes" SET "comision_metodo_pago" = 0, "ganancia_conductor" = "precio_final" - "comision_plataforma" WHERE "precio_final" IS NOT NULL;

-- The ledger is only ever added to.
CREATE TRIGGER "asientos_solo_se_agregan_upd" BEFORE UPDATE ON "asientos" BEGIN SELECT RAISE(ABORT, 'ledger entries are never changed'); END;
CREATE TRIGGER "asientos_solo_se_agregan_del" BEFORE DELETE ON "asientos" BEGIN SELECT RAISE(ABORT, 'ledger entries are never deleted'); END;
CREATE TRIGGER "movimientos_solo_se_agregan_upd" BEFORE UPDATE ON "movimientos" BEGIN SELECT RAISE(ABORT, 'ledger lines are never changed'); END;
CREATE TRIGGER "movimientos_solo_se_agregan_del" BEFORE DELETE ON "movimientos" BEGIN SELECT RAISE(ABORT, 'ledger lines are never deleted'); END;
