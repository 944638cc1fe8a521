-- AlterTable
ALTER TABLE "reservas" ADD COLUMN     "paradas" TEXT NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "cotizaciones" ADD COLUMN     "paradas" TEXT NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "paradas_viaje" (
    "id" SERIAL NOT NULL,
    "viaje_id" INTEGER NOT NULL,
    "orden" INTEGER NOT NULL,
    "direccion" TEXT NOT NULL,
    "latitud" DOUBLE PRECISION NOT NULL,
    "longitud" DOUBLE PRECISION NOT NULL,
    "referencia" TEXT,
    "llegada_en" TIMESTAMP(3),
    "salida_en" TIMESTAMP(3),

    CONSTRAINT "paradas_viaje_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "paradas_viaje_viaje_id_orden_key" ON "paradas_viaje"("viaje_id", "orden");

-- AddForeignKey
ALTER TABLE "paradas_viaje" ADD CONSTRAINT "paradas_viaje_viaje_id_fkey" FOREIGN KEY ("viaje_id") REFERENCES "viajes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

