-- AddForeignKey
ALTER TABLE "viajes_compartidos" ADD CONSTRAINT "viajes_compartidos_viaje_id_fkey" FOREIGN KEY ("viaje_id") REFERENCES "viajes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

