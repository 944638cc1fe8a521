-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "usuarios" (
    "id" SERIAL NOT NULL,
    "uuid" TEXT NOT NULL,
    "nombre" TEXT NOT NULL,
    "apellido" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "telefono" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "tipo_usuario" TEXT NOT NULL DEFAULT 'pasajero',
    "es_activo" BOOLEAN NOT NULL DEFAULT true,
    "es_verificado" BOOLEAN NOT NULL DEFAULT false,
    "fecha_suspension" TIMESTAMP(3),
    "motivo_suspension" TEXT,
    "empresa_id" INTEGER,
    "calificacion" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "total_calificaciones" INTEGER NOT NULL DEFAULT 0,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actualizado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "usuarios_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ubicaciones_usuario" (
    "id" SERIAL NOT NULL,
    "usuario_id" INTEGER NOT NULL,
    "direccion" TEXT,
    "ciudad" TEXT,
    "departamento" TEXT,
    "pais" TEXT,
    "latitud" DOUBLE PRECISION,
    "longitud" DOUBLE PRECISION,
    "codigo_postal" TEXT,
    "es_principal" BOOLEAN NOT NULL DEFAULT true,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actualizado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ubicaciones_usuario_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "empresas" (
    "id" SERIAL NOT NULL,
    "nombre" TEXT NOT NULL,
    "nit" TEXT NOT NULL,
    "email" TEXT,
    "telefono" TEXT,
    "direccion" TEXT,
    "estado" TEXT NOT NULL DEFAULT 'activa',
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actualizado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "empresas_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "viajes" (
    "id" SERIAL NOT NULL,
    "usuario_id" INTEGER,
    "conductor_id" INTEGER,
    "tipo_servicio" TEXT NOT NULL,
    "estado" TEXT NOT NULL DEFAULT 'pendiente',
    "origen_direccion" TEXT NOT NULL,
    "origen_latitud" DOUBLE PRECISION NOT NULL,
    "origen_longitud" DOUBLE PRECISION NOT NULL,
    "origen_referencia" TEXT,
    "destino_direccion" TEXT NOT NULL,
    "destino_latitud" DOUBLE PRECISION NOT NULL,
    "destino_longitud" DOUBLE PRECISION NOT NULL,
    "destino_referencia" TEXT,
    "precio_estimado" DOUBLE PRECISION NOT NULL,
    "multiplicador_demanda" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "precio_final" DOUBLE PRECISION,
    "comision_plataforma" DOUBLE PRECISION,
    "ganancia_conductor" DOUBLE PRECISION,
    "distancia_km" DOUBLE PRECISION NOT NULL,
    "duracion_estimada_minutos" INTEGER NOT NULL,
    "fecha_solicitud" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fecha_aceptacion" TIMESTAMP(3),
    "fecha_en_ruta" TIMESTAMP(3),
    "fecha_inicio" TIMESTAMP(3),
    "fecha_fin" TIMESTAMP(3),
    "fecha_cancelacion" TIMESTAMP(3),
    "motivo_cancelacion" TEXT,
    "cancelado_por" TEXT,
    "calificacion_conductor" INTEGER,
    "comentario_conductor" TEXT,
    "calificacion_usuario" INTEGER,
    "comentario_usuario" TEXT,
    "actualizado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "viajes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "perfiles_conductor" (
    "id" SERIAL NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "nombre_completo" TEXT,
    "telefono" TEXT,
    "direccion" TEXT,
    "estado_revision" TEXT NOT NULL DEFAULT 'pendiente',
    "aprobado" BOOLEAN NOT NULL DEFAULT false,
    "motivo_rechazo" TEXT,
    "fecha_solicitud" TIMESTAMP(3),
    "fecha_aprobacion" TIMESTAMP(3),
    "fecha_creacion" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fecha_actualizacion" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "perfiles_conductor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "licencias" (
    "id" SERIAL NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "numero" TEXT,
    "tipo" TEXT,
    "fecha_emision" TIMESTAMP(3),
    "fecha_expiracion" TIMESTAMP(3),
    "imagen_frente" TEXT,
    "imagen_reverso" TEXT,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actualizado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "licencias_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vehiculos" (
    "id" SERIAL NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "marca" TEXT,
    "modelo" TEXT,
    "anio" INTEGER,
    "placa" TEXT,
    "color" TEXT,
    "capacidad_pasajeros" INTEGER,
    "tipo" TEXT,
    "soat_numero" TEXT,
    "soat_vencimiento" TIMESTAMP(3),
    "tecnomecanica_numero" TEXT,
    "tecnomecanica_vencimiento" TIMESTAMP(3),
    "tarjeta_propiedad_numero" TEXT,
    "foto_vehiculo" TEXT,
    "foto_tarjeta_propiedad" TEXT,
    "foto_soat" TEXT,
    "foto_tecnomecanica" TEXT,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actualizado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "vehiculos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "estados_conductor" (
    "conductor_id" INTEGER NOT NULL,
    "disponible" BOOLEAN NOT NULL DEFAULT false,
    "latitud" DOUBLE PRECISION,
    "longitud" DOUBLE PRECISION,
    "posicion_en" TIMESTAMP(3),
    "actualizado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "estados_conductor_pkey" PRIMARY KEY ("conductor_id")
);

-- CreateTable
CREATE TABLE "periodos_conexion" (
    "id" SERIAL NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "inicio" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fin" TIMESTAMP(3),

    CONSTRAINT "periodos_conexion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ofertas_viaje" (
    "id" SERIAL NOT NULL,
    "viaje_id" INTEGER NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "mostrada_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "respuesta" TEXT,
    "respondida_en" TIMESTAMP(3),

    CONSTRAINT "ofertas_viaje_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tarifas" (
    "id" SERIAL NOT NULL,
    "tipo_vehiculo" TEXT NOT NULL,
    "tarifa_base" DOUBLE PRECISION NOT NULL,
    "precio_km" DOUBLE PRECISION NOT NULL,
    "precio_minuto" DOUBLE PRECISION NOT NULL,
    "tarifa_minima" DOUBLE PRECISION NOT NULL,
    "recargo_pico" DOUBLE PRECISION NOT NULL,
    "recargo_nocturno" DOUBLE PRECISION NOT NULL,
    "actualizado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "tarifas_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notificaciones" (
    "id" SERIAL NOT NULL,
    "usuario_id" INTEGER NOT NULL,
    "tipo" TEXT NOT NULL,
    "titulo" TEXT NOT NULL,
    "mensaje" TEXT NOT NULL,
    "leida" BOOLEAN NOT NULL DEFAULT false,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notificaciones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "codigos_verificacion" (
    "id" SERIAL NOT NULL,
    "usuario_id" INTEGER NOT NULL,
    "codigo_hash" TEXT NOT NULL,
    "intentos" INTEGER NOT NULL DEFAULT 0,
    "expira_en" TIMESTAMP(3) NOT NULL,
    "usado_en" TIMESTAMP(3),
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "codigos_verificacion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "correos_salientes" (
    "id" SERIAL NOT NULL,
    "destinatario" TEXT NOT NULL,
    "asunto" TEXT NOT NULL,
    "cuerpo" TEXT NOT NULL,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "enviado_en" TIMESTAMP(3),

    CONSTRAINT "correos_salientes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "usuarios_uuid_key" ON "usuarios"("uuid");

-- CreateIndex
CREATE UNIQUE INDEX "usuarios_email_key" ON "usuarios"("email");

-- CreateIndex
CREATE INDEX "usuarios_tipo_usuario_es_activo_idx" ON "usuarios"("tipo_usuario", "es_activo");

-- CreateIndex
CREATE INDEX "usuarios_nombre_idx" ON "usuarios"("nombre");

-- CreateIndex
CREATE INDEX "usuarios_apellido_idx" ON "usuarios"("apellido");

-- CreateIndex
CREATE INDEX "usuarios_telefono_idx" ON "usuarios"("telefono");

-- CreateIndex
CREATE INDEX "usuarios_empresa_id_idx" ON "usuarios"("empresa_id");

-- CreateIndex
CREATE INDEX "ubicaciones_usuario_usuario_id_es_principal_idx" ON "ubicaciones_usuario"("usuario_id", "es_principal");

-- CreateIndex
CREATE UNIQUE INDEX "empresas_nit_key" ON "empresas"("nit");

-- CreateIndex
CREATE INDEX "empresas_nombre_idx" ON "empresas"("nombre");

-- CreateIndex
CREATE INDEX "viajes_usuario_id_estado_fecha_solicitud_idx" ON "viajes"("usuario_id", "estado", "fecha_solicitud");

-- CreateIndex
CREATE INDEX "viajes_conductor_id_estado_fecha_solicitud_idx" ON "viajes"("conductor_id", "estado", "fecha_solicitud");

-- CreateIndex
CREATE INDEX "viajes_conductor_id_fecha_fin_idx" ON "viajes"("conductor_id", "fecha_fin");

-- CreateIndex
CREATE INDEX "viajes_estado_tipo_servicio_idx" ON "viajes"("estado", "tipo_servicio");

-- CreateIndex
CREATE INDEX "viajes_estado_fecha_fin_idx" ON "viajes"("estado", "fecha_fin");

-- CreateIndex
CREATE UNIQUE INDEX "perfiles_conductor_conductor_id_key" ON "perfiles_conductor"("conductor_id");

-- CreateIndex
CREATE INDEX "perfiles_conductor_estado_revision_fecha_solicitud_idx" ON "perfiles_conductor"("estado_revision", "fecha_solicitud");

-- CreateIndex
CREATE UNIQUE INDEX "licencias_conductor_id_key" ON "licencias"("conductor_id");

-- CreateIndex
CREATE UNIQUE INDEX "licencias_numero_key" ON "licencias"("numero");

-- CreateIndex
CREATE UNIQUE INDEX "vehiculos_conductor_id_key" ON "vehiculos"("conductor_id");

-- CreateIndex
CREATE UNIQUE INDEX "vehiculos_placa_key" ON "vehiculos"("placa");

-- CreateIndex
CREATE INDEX "vehiculos_tipo_idx" ON "vehiculos"("tipo");

-- CreateIndex
CREATE INDEX "estados_conductor_disponible_posicion_en_idx" ON "estados_conductor"("disponible", "posicion_en");

-- CreateIndex
CREATE INDEX "estados_conductor_latitud_longitud_idx" ON "estados_conductor"("latitud", "longitud");

-- CreateIndex
CREATE INDEX "periodos_conexion_conductor_id_inicio_idx" ON "periodos_conexion"("conductor_id", "inicio");

-- CreateIndex
CREATE INDEX "periodos_conexion_conductor_id_fin_idx" ON "periodos_conexion"("conductor_id", "fin");

-- CreateIndex
CREATE INDEX "ofertas_viaje_conductor_id_mostrada_en_idx" ON "ofertas_viaje"("conductor_id", "mostrada_en");

-- CreateIndex
CREATE UNIQUE INDEX "ofertas_viaje_viaje_id_conductor_id_key" ON "ofertas_viaje"("viaje_id", "conductor_id");

-- CreateIndex
CREATE UNIQUE INDEX "tarifas_tipo_vehiculo_key" ON "tarifas"("tipo_vehiculo");

-- CreateIndex
CREATE INDEX "notificaciones_usuario_id_creado_en_idx" ON "notificaciones"("usuario_id", "creado_en");

-- CreateIndex
CREATE INDEX "codigos_verificacion_usuario_id_creado_en_idx" ON "codigos_verificacion"("usuario_id", "creado_en");

-- CreateIndex
CREATE INDEX "correos_salientes_enviado_en_idx" ON "correos_salientes"("enviado_en");

-- AddForeignKey
ALTER TABLE "usuarios" ADD CONSTRAINT "usuarios_empresa_id_fkey" FOREIGN KEY ("empresa_id") REFERENCES "empresas"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ubicaciones_usuario" ADD CONSTRAINT "ubicaciones_usuario_usuario_id_fkey" FOREIGN KEY ("usuario_id") REFERENCES "usuarios"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "viajes" ADD CONSTRAINT "viajes_usuario_id_fkey" FOREIGN KEY ("usuario_id") REFERENCES "usuarios"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "viajes" ADD CONSTRAINT "viajes_conductor_id_fkey" FOREIGN KEY ("conductor_id") REFERENCES "usuarios"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "perfiles_conductor" ADD CONSTRAINT "perfiles_conductor_conductor_id_fkey" FOREIGN KEY ("conductor_id") REFERENCES "usuarios"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "licencias" ADD CONSTRAINT "licencias_conductor_id_fkey" FOREIGN KEY ("conductor_id") REFERENCES "perfiles_conductor"("conductor_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vehiculos" ADD CONSTRAINT "vehiculos_conductor_id_fkey" FOREIGN KEY ("conductor_id") REFERENCES "perfiles_conductor"("conductor_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "estados_conductor" ADD CONSTRAINT "estados_conductor_conductor_id_fkey" FOREIGN KEY ("conductor_id") REFERENCES "perfiles_conductor"("conductor_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ofertas_viaje" ADD CONSTRAINT "ofertas_viaje_viaje_id_fkey" FOREIGN KEY ("viaje_id") REFERENCES "viajes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notificaciones" ADD CONSTRAINT "notificaciones_usuario_id_fkey" FOREIGN KEY ("usuario_id") REFERENCES "usuarios"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "codigos_verificacion" ADD CONSTRAINT "codigos_verificacion_usuario_id_fkey" FOREIGN KEY ("usuario_id") REFERENCES "usuarios"("id") ON DELETE CASCADE ON UPDATE CASCADE;

