-- CreateTable
CREATE TABLE "cambios_viaje" (
    "id" SERIAL NOT NULL,
    "viaje_id" INTEGER NOT NULL,
    "solicitado_por" INTEGER NOT NULL,
    "estado" TEXT NOT NULL DEFAULT 'pendiente',
    "destino_direccion" TEXT NOT NULL,
    "destino_latitud" DOUBLE PRECISION NOT NULL,
    "destino_longitud" DOUBLE PRECISION NOT NULL,
    "destino_referencia" TEXT,
    "paradas" TEXT NOT NULL,
    "precio_antes" INTEGER NOT NULL,
    "precio_despues" INTEGER NOT NULL,
    "distancia_km" DOUBLE PRECISION NOT NULL,
    "duracion_estimada_minutos" INTEGER NOT NULL,
    "creado_en" TIMESTAMP(3) NOT NULL,
    "vence_en" TIMESTAMP(3) NOT NULL,
    "respondido_en" TIMESTAMP(3),

    CONSTRAINT "cambios_viaje_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "cambios_viaje_viaje_id_estado_idx" ON "cambios_viaje"("viaje_id", "estado");

-- CreateIndex
CREATE INDEX "cambios_viaje_estado_vence_en_idx" ON "cambios_viaje"("estado", "vence_en");

