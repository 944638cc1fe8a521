-- DropIndex
DROP INDEX "correos_salientes_enviado_en_idx";

-- AlterTable
ALTER TABLE "correos_salientes" ADD COLUMN     "estado" TEXT NOT NULL DEFAULT 'pendiente',
ADD COLUMN     "intentos" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "proximo_intento" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "reclamado_hasta" TIMESTAMP(3),
ADD COLUMN     "ultimo_error" TEXT,
ADD COLUMN     "vence_en" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "codigos_correo" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "codigo_hash" TEXT NOT NULL,
    "intentos" INTEGER NOT NULL DEFAULT 0,
    "expira_en" TIMESTAMP(3) NOT NULL,
    "usado_en" TIMESTAMP(3),
    "creado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "codigos_correo_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dispositivos_usuario" (
    "id" SERIAL NOT NULL,
    "usuario_id" INTEGER NOT NULL,
    "huella" TEXT NOT NULL,
    "confiable" BOOLEAN NOT NULL DEFAULT false,
    "intentos_fallidos" INTEGER NOT NULL DEFAULT 0,
    "bloqueado_hasta" TIMESTAMP(3),
    "creado_en" TIMESTAMP(3) NOT NULL,
    "visto_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "dispositivos_usuario_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "historial_documentos" (
    "id" SERIAL NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "tipo_documento" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "subido_en" TIMESTAMP(3) NOT NULL,
    "reemplazado_en" TIMESTAMP(3),

    CONSTRAINT "historial_documentos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "configuracion_app" (
    "id" SERIAL NOT NULL,
    "clave" TEXT NOT NULL,
    "valor" TEXT NOT NULL,
    "actualizado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "configuracion_app_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "codigos_correo_email_creado_en_idx" ON "codigos_correo"("email", "creado_en");

-- CreateIndex
CREATE UNIQUE INDEX "dispositivos_usuario_usuario_id_huella_key" ON "dispositivos_usuario"("usuario_id", "huella");

-- CreateIndex
CREATE INDEX "historial_documentos_conductor_id_tipo_documento_subido_en_idx" ON "historial_documentos"("conductor_id", "tipo_documento", "subido_en");

-- CreateIndex
CREATE UNIQUE INDEX "configuracion_app_clave_key" ON "configuracion_app"("clave");

-- CreateIndex
CREATE INDEX "correos_salientes_estado_proximo_intento_idx" ON "correos_salientes"("estado", "proximo_intento");

-- AddForeignKey
ALTER TABLE "dispositivos_usuario" ADD CONSTRAINT "dispositivos_usuario_usuario_id_fkey" FOREIGN KEY ("usuario_id") REFERENCES "usuarios"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "historial_documentos" ADD CONSTRAINT "historial_documentos_conductor_id_fkey" FOREIGN KEY ("conductor_id") REFERENCES "perfiles_conductor"("conductor_id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Mail queued before the service sent any: registration codes long expired.
UPDATE "correos_salientes" SET "estado" = 'vencido', "ultimo_error" = 'En cola antes de que el servicio enviara correo' WHERE "enviado_en" IS NULL;

-- The photos drivers already have start their documents' history.
INSERT INTO "historial_documentos" ("conductor_id", "tipo_documento", "url", "subido_en")
SELECT "conductor_id", 'licencia_frente', "imagen_frente", "actualizado_en" FROM "licencias" WHERE "imagen_frente" IS NOT NULL;
INSERT INTO "historial_documentos" ("conductor_id", "tipo_documento", "url", "subido_en")
SELECT "conductor_id", 'licencia_reverso', "imagen_reverso", "actualizado_en" FROM "licencias" WHERE "imagen_reverso" IS NOT NULL;
INSERT INTO "historial_documentos" ("conductor_id", "tipo_documento", "url", "subido_en")
SELECT "conductor_id", 'vehiculo', "foto_vehiculo", "actualizado_en" FROM "vehiculos" WHERE "foto_vehiculo" IS NOT NULL;
INSERT INTO "historial_documentos" ("conductor_id", "tipo_documento", "url", "subido_en")
SELECT "conductor_id", 'tarjeta_propiedad', "foto_tarjeta_propiedad", "actualizado_en" FROM "vehiculos" WHERE "foto_tarjeta_propiedad" IS NOT NULL;
INSERT INTO "historial_documentos" ("conductor_id", "tipo_documento", "url", "subido_en")
SELECT "conductor_id", 'soat', "foto_soat", "actualizado_en" FROM "vehiculos" WHERE "foto_soat" IS NOT NULL;
INSERT INTO "historial_documentos" ("conductor_id", "tipo_documento", "url", "subido_en")
SELECT "conductor_id", 'tecnomecanica', "foto_tecnomecanica", "actualizado_en" FROM "vehiculos" WHERE "foto_tecnomecanica" IS NOT NULL;
