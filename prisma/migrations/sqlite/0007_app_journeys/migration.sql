-- CreateTable
CREATE TABLE "codigos_correo" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "email" TEXT NOT NULL,
    "codigo_hash" TEXT NOT NULL,
    "intentos" INTEGER NOT NULL DEFAULT 0,
    "expira_en" DATETIME NOT NULL,
    "usado_en" DATETIME,
    "creado_en" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "dispositivos_usuario" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "usuario_id" INTEGER NOT NULL,
    "huella" TEXT NOT NULL,
    "confiable" BOOLEAN NOT NULL DEFAULT false,
    "intentos_fallidos" INTEGER NOT NULL DEFAULT 0,
    "bloqueado_hasta" DATETIME,
    "creado_en" DATETIME NOT NULL,
    "visto_en" DATETIME NOT NULL,
    CONSTRAINT "dispositivos_usuario_usuario_id_fkey" FOREIGN KEY ("usuario_id") REFERENCES "usuarios" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "historial_documentos" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "conductor_id" INTEGER NOT NULL,
    "tipo_documento" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "subido_en" DATETIME NOT NULL,
    "reemplazado_en" DATETIME,
    CONSTRAINT "historial_documentos_conductor_id_fkey" FOREIGN KEY ("conductor_id") REFERENCES "perfiles_conductor" ("conductor_id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "configuracion_app" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "clave" TEXT NOT NULL,
    "valor" TEXT NOT NULL,
    "actualizado_en" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_correos_salientes" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "destinatario" TEXT NOT NULL,
    "asunto" TEXT NOT NULL,
    "cuerpo" TEXT NOT NULL,
    "creado_en" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "estado" TEXT NOT NULL DEFAULT 'pendiente',
    "intentos" INTEGER NOT NULL DEFAULT 0,
    "proximo_intento" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reclamado_hasta" DATETIME,
    "ultimo_error" TEXT,
    "vence_en" DATETIME,
    "enviado_en" DATETIME
);
INSERT INTO "new_correos_salientes" ("asunto", "creado_en", "cuerpo", "destinatario", "enviado_en", "id") SELECT "asunto", "creado_en", "cuerpo", "destinatario", "enviado_en", "id" FROM "correos_salientes";
DROP TABLE "correos_salientes";
ALTER TABLE "new_correos_salientes" RENAME TO "correos_salientes";
CREATE INDEX "correos_salientes_estado_proximo_intento_idx" ON "correos_salientes"("estado", "proximo_intento");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "codigos_correo_email_creado_en_idx" ON "codigos_correo"("email", "creado_en");

-- CreateIndex
CREATE UNIQUE INDEX "dispositivos_usuario_usuario_id_huella_key" ON "dispositivos_usuario"("usuario_id", "huella");

-- CreateIndex
CREATE INDEX "historial_documentos_conductor_id_tipo_documento_subido_en_idx" ON "historial_documentos"("conductor_id", "tipo_documento", "subido_en");

-- CreateIndex
CREATE UNIQUE INDEX "configuracion_app_clave_key" ON "configuracion_app"("clave");


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
