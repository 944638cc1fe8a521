-- AlterTable
ALTER TABLE "viajes" ADD COLUMN "proxima_ola" DATETIME;

-- CreateIndex
CREATE INDEX "viajes_estado_proxima_ola_idx" ON "viajes"("estado", "proxima_ola");

-- Pending requests were timed by the memory of the processes this version replaces: their next
-- wave is due at once (their request time, kept in the format the client writes it in).
UPDATE "viajes" SET "proxima_ola" = "fecha_solicitud" WHERE "estado" = 'pendiente';
