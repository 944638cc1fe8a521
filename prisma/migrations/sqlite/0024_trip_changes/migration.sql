-- CreateTable
CREATE TABLE "cambios_viaje" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "viaje_id" INTEGER NOT NULL,
    "solicitado_por" INTEGER NOT NULL,
    "estado" TEXT NOT NULL DEFAULT 'pendiente',
    "destino_direccion" TEXT NOT NULL,
    "destino_latitud" REAL NOT NULL,
    "destino_longitud" REAL NOT NULL,
    "destino_referencia" TEXT,
    "paradas" TEXT NOT NULL,
    "precio_antes" INTEGER NOT NULL,
    "precio_despues" INTEGER NOT NULL,
    "distancia_km" REAL NOT NULL,
    "duracion_estimada_minutos" INTEGER NOT NULL,
    "creado_en" DATETIME NOT NULL,
    "vence_en" DATETIME NOT NULL,
    "respondido_en" DATETIME
);

-- CreateIndex
CREATE INDEX "cambios_viaje_viaje_id_estado_idx" ON "cambios_viaje"("viaje_id", "estado");

-- CreateIndex
CREATE INDEX "cambios_viaje_estado_vence_en_idx" ON "cambios_viaje"("estado", "vence_en");

