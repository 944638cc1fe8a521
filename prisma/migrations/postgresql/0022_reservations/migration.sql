-- CreateTable
CREATE TABLE "reservas" (
    "id" SERIAL NOT NULL,
    "usuario_id" INTEGER NOT NULL,
    "estado" TEXT NOT NULL DEFAULT 'programada',
    "fecha_programada" TIMESTAMP(3) NOT NULL,
    "tipo_servicio" TEXT NOT NULL,
    "metodo_pago" TEXT NOT NULL,
    "origen_direccion" TEXT NOT NULL,
    "origen_latitud" DOUBLE PRECISION NOT NULL,
    "origen_longitud" DOUBLE PRECISION NOT NULL,
    "origen_referencia" TEXT,
    "destino_direccion" TEXT NOT NULL,
    "destino_latitud" DOUBLE PRECISION NOT NULL,
    "destino_longitud" DOUBLE PRECISION NOT NULL,
    "destino_referencia" TEXT,
    "precio_estimado" INTEGER NOT NULL,
    "distancia_km" DOUBLE PRECISION NOT NULL,
    "duracion_estimada_minutos" INTEGER NOT NULL,
    "cotizacion_id" TEXT,
    "conductor_id" INTEGER,
    "comprometida_en" TIMESTAMP(3),
    "viaje_id" INTEGER,
    "recordatorio_1h_en" TIMESTAMP(3),
    "recordatorio_15m_en" TIMESTAMP(3),
    "aviso_conductor_en" TIMESTAMP(3),
    "motivo_cancelacion" TEXT,
    "cancelada_por" TEXT,
    "fecha_cancelacion" TIMESTAMP(3),
    "creada_en" TIMESTAMP(3) NOT NULL,
    "actualizada_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "reservas_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "compromisos_reserva" (
    "id" SERIAL NOT NULL,
    "reserva_id" INTEGER NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "comprometido_en" TIMESTAMP(3) NOT NULL,
    "fin" TEXT,
    "terminado_en" TIMESTAMP(3),

    CONSTRAINT "compromisos_reserva_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "reservas" ADD CONSTRAINT "reservas_viaje_id_fkey" FOREIGN KEY ("viaje_id") REFERENCES "viajes"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "compromisos_reserva" ADD CONSTRAINT "compromisos_reserva_reserva_id_fkey" FOREIGN KEY ("reserva_id") REFERENCES "reservas"("id") ON DELETE CASCADE ON UPDATE CASCADE;

