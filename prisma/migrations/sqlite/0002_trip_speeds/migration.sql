-- AlterTable
ALTER TABLE "viajes" ADD COLUMN "hora_semana" INTEGER;
ALTER TABLE "viajes" ADD COLUMN "velocidad_real_kmh" REAL;

-- CreateIndex
CREATE INDEX "viajes_estado_hora_semana_idx" ON "viajes"("estado", "hora_semana");

