import type { PaginadoFragment } from "../gql/graphql";

export type Pagination = PaginadoFragment;

/** Previous/next through a paged list, with where the operator is in it. */
export function Pager({ pagination, onPage }: { pagination: Pagination; onPage: (page: number) => void }) {
  const { page, per_page, total, total_pages } = pagination;
  const first = total === 0 ? 0 : (page - 1) * per_page + 1;
  const last = Math.min(page * per_page, total);
  return (
    <nav className="paginador" aria-label="Paginación">
      <p>{total === 0 ? "Sin resultados" : `${first}–${last} de ${total.toLocaleString("es-CO")}`}</p>
      <div className="paginador__botones">
        <button type="button" className="boton boton--secundario" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Anterior
        </button>
        <span aria-current="page">
          Página {page} de {Math.max(total_pages, 1)}
        </span>
        <button type="button" className="boton boton--secundario" disabled={page >= total_pages} onClick={() => onPage(page + 1)}>
          Siguiente
        </button>
      </div>
    </nav>
  );
}
