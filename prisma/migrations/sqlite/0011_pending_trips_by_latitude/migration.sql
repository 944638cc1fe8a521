-- DropIndex
DROP INDEX "viajes_estado_tipo_servicio_idx";

-- CreateIndex
CREATE INDEX "viajes_estado_tipo_servicio_origen_latitud_idx" ON "viajes"("estado", "tipo_servicio", "origen_latitud");

