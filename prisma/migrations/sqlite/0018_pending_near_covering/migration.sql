-- DropIndex
DROP INDEX "viajes_estado_tipo_servicio_origen_latitud_idx";

-- CreateIndex
CREATE INDEX "viajes_estado_tipo_servicio_origen_latitud_origen_longitud_idx" ON "viajes"("estado", "tipo_servicio", "origen_latitud", "origen_longitud");

