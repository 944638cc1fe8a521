-- CreateTable
CREATE TABLE "viajes_compartidos_avisados" (
    "id" SERIAL NOT NULL,
    "enlace_id" INTEGER NOT NULL,
    "nombre" TEXT NOT NULL,

    CONSTRAINT "viajes_compartidos_avisados_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "viajes_compartidos_avisados_enlace_id_idx" ON "viajes_compartidos_avisados"("enlace_id");

-- AddForeignKey
ALTER TABLE "viajes_compartidos_avisados" ADD CONSTRAINT "viajes_compartidos_avisados_enlace_id_fkey" FOREIGN KEY ("enlace_id") REFERENCES "viajes_compartidos"("id") ON DELETE CASCADE ON UPDATE CASCADE;

