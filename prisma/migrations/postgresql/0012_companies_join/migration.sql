-- AlterTable
ALTER TABLE "empresas" ADD COLUMN     "motivo_rechazo" TEXT,
ADD COLUMN     "revisada_en" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "solicitudes_afiliacion" (
    "id" SERIAL NOT NULL,
    "empresa_id" INTEGER NOT NULL,
    "conductor_id" INTEGER,
    "email" TEXT,
    "estado" TEXT NOT NULL,
    "motivo" TEXT,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resuelta_en" TIMESTAMP(3),
    "resuelta_por" INTEGER,

    CONSTRAINT "solicitudes_afiliacion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "historial_afiliaciones" (
    "id" SERIAL NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "empresa_anterior_id" INTEGER,
    "empresa_nueva_id" INTEGER,
    "accion" TEXT NOT NULL,
    "actor_id" INTEGER,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "historial_afiliaciones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claves_por_crear" (
    "id" SERIAL NOT NULL,
    "usuario_id" INTEGER NOT NULL,
    "codigo_hash" TEXT NOT NULL,
    "expira_en" TIMESTAMP(3) NOT NULL,
    "usado_en" TIMESTAMP(3),
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "claves_por_crear_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "solicitudes_afiliacion_empresa_id_estado_idx" ON "solicitudes_afiliacion"("empresa_id", "estado");

-- CreateIndex
CREATE INDEX "solicitudes_afiliacion_conductor_id_estado_idx" ON "solicitudes_afiliacion"("conductor_id", "estado");

-- CreateIndex
CREATE INDEX "solicitudes_afiliacion_email_estado_idx" ON "solicitudes_afiliacion"("email", "estado");

-- CreateIndex
CREATE INDEX "historial_afiliaciones_conductor_id_creado_en_idx" ON "historial_afiliaciones"("conductor_id", "creado_en");

-- CreateIndex
CREATE INDEX "historial_afiliaciones_empresa_anterior_id_idx" ON "historial_afiliaciones"("empresa_anterior_id");

-- CreateIndex
CREATE INDEX "historial_afiliaciones_empresa_nueva_id_idx" ON "historial_afiliaciones"("empresa_nueva_id");

-- CreateIndex
CREATE UNIQUE INDEX "claves_por_crear_codigo_hash_key" ON "claves_por_crear"("codigo_hash");

-- CreateIndex
CREATE INDEX "claves_por_crear_usuario_id_idx" ON "claves_por_crear"("usuario_id");

-- AddForeignKey
ALTER TABLE "solicitudes_afiliacion" ADD CONSTRAINT "solicitudes_afiliacion_empresa_id_fkey" FOREIGN KEY ("empresa_id") REFERENCES "empresas"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "solicitudes_afiliacion" ADD CONSTRAINT "solicitudes_afiliacion_conductor_id_fkey" FOREIGN KEY ("conductor_id") REFERENCES "usuarios"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claves_por_crear" ADD CONSTRAINT "claves_por_crear_usuario_id_fkey" FOREIGN KEY ("usuario_id") REFERENCES "usuarios"("id") ON DELETE CASCADE ON UPDATE CASCADE;

