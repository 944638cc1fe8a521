-- AlterTable
ALTER TABLE "usuarios" ADD COLUMN     "verificar_pin" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "viajes" ADD COLUMN     "inicio_confirmado_en" TIMESTAMP(3),
ADD COLUMN     "pin_inicio" TEXT,
ADD COLUMN     "pin_intentos" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "historial_viajes" (
    "id" SERIAL NOT NULL,
    "viaje_id" INTEGER NOT NULL,
    "tipo" TEXT NOT NULL,
    "actor_id" INTEGER,
    "detalles" TEXT,
    "creado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "historial_viajes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "historial_viajes_viaje_id_id_idx" ON "historial_viajes"("viaje_id", "id");

