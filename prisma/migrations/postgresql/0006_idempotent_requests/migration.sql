-- CreateTable
CREATE TABLE "solicitudes_idempotentes" (
    "id" SERIAL NOT NULL,
    "clave" TEXT NOT NULL,
    "huella_credencial" TEXT NOT NULL,
    "metodo" TEXT NOT NULL,
    "ruta" TEXT NOT NULL,
    "huella_cuerpo" TEXT NOT NULL,
    "estado" TEXT NOT NULL DEFAULT 'en_curso',
    "codigo_http" INTEGER,
    "cabeceras" TEXT,
    "cuerpo" TEXT,
    "creado_en" TIMESTAMP(3) NOT NULL,
    "expira_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "solicitudes_idempotentes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "solicitudes_idempotentes_expira_en_idx" ON "solicitudes_idempotentes"("expira_en");

-- CreateIndex
CREATE UNIQUE INDEX "solicitudes_idempotentes_clave_huella_credencial_key" ON "solicitudes_idempotentes"("clave", "huella_credencial");

