-- AlterTable
ALTER TABLE "viajes" ADD COLUMN "cotizacion_id" TEXT;
ALTER TABLE "viajes" ADD COLUMN "precio_cotizado" INTEGER;

-- CreateTable
CREATE TABLE "cotizaciones" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "usuario_id" INTEGER NOT NULL,
    "tipo_servicio" TEXT NOT NULL,
    "metodo_pago" TEXT NOT NULL,
    "origen_latitud" REAL NOT NULL,
    "origen_longitud" REAL NOT NULL,
    "destino_latitud" REAL NOT NULL,
    "destino_longitud" REAL NOT NULL,
    "fecha_programada" DATETIME,
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

-- CreateIndex
CREATE INDEX "cotizaciones_usuario_id_vence_en_idx" ON "cotizaciones"("usuario_id", "vence_en");

-- CreateIndex
CREATE UNIQUE INDEX "viajes_cotizacion_id_key" ON "viajes"("cotizacion_id");

