-- Columns added in place: rebuilding "viajes" would drop the triggers 0014_company_daily_figures put on it.

-- AlterTable
ALTER TABLE "usuarios" ADD COLUMN "verificar_pin" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "viajes" ADD COLUMN "pin_inicio" TEXT;
ALTER TABLE "viajes" ADD COLUMN "pin_intentos" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "viajes" ADD COLUMN "inicio_confirmado_en" DATETIME;

-- CreateTable
CREATE TABLE "historial_viajes" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "viaje_id" INTEGER NOT NULL,
    "tipo" TEXT NOT NULL,
    "actor_id" INTEGER,
    "detalles" TEXT,
    "creado_en" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "historial_viajes_viaje_id_id_idx" ON "historial_viajes"("viaje_id", "id");
