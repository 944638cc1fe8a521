-- CreateTable
CREATE TABLE "reservas" (
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

-- CreateTable
CREATE TABLE "compromisos_reserva" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "reserva_id" INTEGER NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "comprometido_en" DATETIME NOT NULL,
    "fin" TEXT,
    "terminado_en" DATETIME,
    CONSTRAINT "compromisos_reserva_reserva_id_fkey" FOREIGN KEY ("reserva_id") REFERENCES "reservas" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "reservas_cotizacion_id_key" ON "reservas"("cotizacion_id");

-- CreateIndex
CREATE UNIQUE INDEX "reservas_viaje_id_key" ON "reservas"("viaje_id");

-- CreateIndex
CREATE INDEX "reservas_estado_fecha_programada_idx" ON "reservas"("estado", "fecha_programada");

-- CreateIndex
CREATE INDEX "reservas_usuario_id_estado_fecha_programada_idx" ON "reservas"("usuario_id", "estado", "fecha_programada");

-- CreateIndex
CREATE INDEX "reservas_conductor_id_estado_fecha_programada_idx" ON "reservas"("conductor_id", "estado", "fecha_programada");

-- CreateIndex
CREATE INDEX "compromisos_reserva_reserva_id_idx" ON "compromisos_reserva"("reserva_id");

-- CreateIndex
CREATE INDEX "compromisos_reserva_conductor_id_fin_idx" ON "compromisos_reserva"("conductor_id", "fin");

