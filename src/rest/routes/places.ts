import { z } from "zod";
import { PLACE_KINDS } from "../../domain/places/saved-places.js";
import { optional } from "../../domain/validation.js";
import { legacyChoice, legacyId, legacyNumber, legacyText } from "../legacy-fields.js";
import { SAVED_PLACE, selection } from "../resources.js";
import { defineRoute, operation } from "../route.js";

/* A passenger's saved places, for the app's next version: one casa, one trabajo and up to 10 favoritos. */

const PATH = "/user/lugares_favoritos.php";
const caller = { usuario_id: legacyId() };
const PLACE_FIELDS = selection(SAVED_PLACE);

export const placeRoutes = [
  defineRoute({
    method: "GET",
    path: PATH,
    summary: "Los lugares guardados del usuario: su casa, su trabajo y sus favoritos",
    input: z.object(caller),
    caller: "usuario_id",
    document: operation(`query SavedPlaces {
      savedPlaces { ...LegacyError ... on QuerySavedPlacesSuccess { data { ${PLACE_FIELDS} } } }
    }`),
    variables: () => ({}),
    output: z.object({ lugares: z.array(SAVED_PLACE) }),
    respond: (result) => ({ lugares: result.data }),
  }),
  defineRoute({
    method: "POST",
    path: PATH,
    summary: "El usuario guarda un lugar: su casa o su trabajo (reemplaza el que tenía) o un favorito (hasta 10)",
    input: z.object({
      ...caller,
      tipo: legacyChoice(PLACE_KINDS),
      nombre: optional(legacyText()),
      direccion: legacyText(),
      latitud: legacyNumber(),
      longitud: legacyNumber(),
      referencia: optional(legacyText()),
    }),
    caller: "usuario_id",
    document: operation(`mutation SavePlace($input: LugarFavoritoInput!) {
      savePlace(input: $input) { ...LegacyError ... on LugarFavorito { ${PLACE_FIELDS} } }
    }`),
    variables: ({ usuario_id: _caller, ...input }) => ({ input }),
    output: z.object({ lugar: SAVED_PLACE }),
    respond: (lugar) => ({ message: "Lugar guardado", lugar }),
  }),
  defineRoute({
    method: "DELETE",
    path: PATH,
    summary: "El usuario quita uno de sus lugares guardados",
    input: z.object({ ...caller, lugar_id: legacyId() }),
    caller: "usuario_id",
    document: operation(`mutation RemoveSavedPlace($lugar_id: Int!) {
      removeSavedPlace(lugar_id: $lugar_id) { ...LegacyError ... on Eliminado { id } }
    }`),
    variables: ({ lugar_id }) => ({ lugar_id }),
    output: z.object({ lugar_id: z.int() }),
    respond: (removed) => ({ message: "Lugar eliminado", lugar_id: removed.id }),
  }),
];
