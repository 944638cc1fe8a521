import { useEffect, useState } from "react";
import { Dialog } from "../../components/dialog";
import { dateTime } from "../../format";
import { DOCUMENT_TYPES } from "./documents";

export interface Photo {
  id: number;
  tipo_documento: string;
  url: string;
  subido_en: string;
  reemplazado_en?: string | null;
}

/**
 * One photo at a time, large, with previous/next through the set it was opened from. The links
 * are signed and expire: reopening the page signs them anew.
 */
export function DocumentViewer({ photos, start, onClose }: { photos: readonly Photo[]; start: number | null; onClose: () => void }) {
  const [index, setIndex] = useState(start ?? 0);
  useEffect(() => setIndex(start ?? 0), [start]);
  const photo = start === null ? undefined : photos[index];
  const name = photo ? (DOCUMENT_TYPES[photo.tipo_documento] ?? photo.tipo_documento) : "";
  return (
    <Dialog
      open={photo !== undefined}
      title={name}
      onClose={onClose}
      wide
      cancelLabel="Cerrar"
      actions={
        <>
          <button type="button" className="boton boton--secundario" disabled={index === 0} onClick={() => setIndex(index - 1)}>
            Anterior
          </button>
          <button
            type="button"
            className="boton boton--secundario"
            disabled={index >= photos.length - 1}
            onClick={() => setIndex(index + 1)}
          >
            Siguiente
          </button>
        </>
      }
    >
      {photo && (
        <figure className="visor">
          <a href={photo.url} target="_blank" rel="noreferrer">
            <img src={photo.url} alt={`Foto de ${name}`} />
          </a>
          <figcaption>
            {index + 1} de {photos.length} · subida el {dateTime(photo.subido_en)}
            {photo.reemplazado_en ? ` · reemplazada el ${dateTime(photo.reemplazado_en)}` : " · vigente"} · se abre en una pestaña nueva al
            hacer clic
          </figcaption>
        </figure>
      )}
    </Dialog>
  );
}
