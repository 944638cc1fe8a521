-- AlterTable
ALTER TABLE "viajes" ADD COLUMN     "cotizacion_id" TEXT,
ADD COLUMN     "precio_cotizado" INTEGER;

-- CreateTable
CREATE TABLE "cotizaciones" (
    "id" TEXT NOT NULL,
    "usuario_id" INTEGER NOT NULL,
    "tipo_servicio" TEXT NOT NULL,
    "metodo_pago" TEXT NOT NULL,
    "origen_latitud" DOUBLE PRECISION NOT NULL,
    "origen_longitud" DOUBLE PRECISION NOT NULL,
    "destino_latitud" DOUBLE PRECISION NOT NULL,
    "destino_longitud" DOUBLE PRECISION NOT NULL,
    "fecha_programada" TIMESTAMP(3),
    "precio_estimado" INTEGER NOT NULL,
    "tarifa_base" INTEGER NOT NULL,
    "por_distancia" INTEGER NOT NULL,
    "por_tiempo" INTEGER NOT NULL,
    "recargo" TEXT,
    "por_recargo" INTEGER NOT NULL,
    "multiplicador_demanda" DOUBLE PRECISION NOT NULL,
    "distancia_km" DOUBLE PRECISION NOT NULL,
    "duracion_estimada_minutos" INTEGER NOT NULL,
    "creada_en" TIMESTAMP(3) NOT NULL,
    "vence_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "cotizaciones_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "cotizaciones_usuario_id_vence_en_idx" ON "cotizaciones"("usuario_id", "vence_en");

-- CreateIndex
CREATE UNIQUE INDEX "viajes_cotizacion_id_key" ON "viajes"("cotizacion_id");

