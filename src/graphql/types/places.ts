import { ConflictError } from "../../domain/errors.js";
import { MAX_FAVOURITES, removeSavedPlace, savedPlaces, savePlace, type PlaceKind } from "../../domain/places/saved-places.js";
import { Deleted, builder } from "../builder.js";
import { CALLER, LOOKUP } from "../errors.js";
import { describedEnum } from "./enums.js";

const PlaceKindEnum = describedEnum("TipoLugar", "Qué es un lugar guardado", {
  casa: "La casa (una por persona)",
  trabajo: "El trabajo (uno por persona)",
  favorito: `Otro lugar favorito (hasta ${MAX_FAVOURITES})`,
});

const SavedPlaceRef = builder.prismaObject("SavedPlace", {
  name: "LugarFavorito",
  description: "Un lugar que un pasajero guarda para pedir viajes sin escribir la dirección: su casa, su trabajo o un favorito",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El lugar" }),
    tipo: t.field({ type: PlaceKindEnum, description: "Casa, trabajo o favorito", resolve: (place) => place.tipo as PlaceKind }),
    nombre: t.exposeString("nombre", { description: "Cómo lo llama la persona" }),
    direccion: t.exposeString("direccion", { description: "Su dirección" }),
    latitud: t.exposeFloat("latitud", { description: "Latitud" }),
    longitud: t.exposeFloat("longitud", { description: "Longitud" }),
    referencia: t.exposeString("referencia", { nullable: true, description: "Un punto de referencia para encontrarlo" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se guardó" }),
  }),
});

const SavedPlaceInput = builder.inputType("LugarFavoritoInput", {
  description: "Un lugar para guardar; una casa o un trabajo reemplaza el que había",
  fields: (t) => ({
    tipo: t.field({ type: PlaceKindEnum, required: true, description: "Casa, trabajo o favorito" }),
    nombre: t.string({ description: "Cómo llamarlo (hasta 60 caracteres); obligatorio para un favorito" }),
    direccion: t.string({ required: true, description: "Su dirección" }),
    latitud: t.float({ required: true, description: "Latitud" }),
    longitud: t.float({ required: true, description: "Longitud" }),
    referencia: t.string({ description: "Un punto de referencia" }),
  }),
});

builder.queryFields((t) => ({
  savedPlaces: t.field({
    type: [SavedPlaceRef],
    description: "Los lugares guardados de quien llama: su casa, su trabajo y luego sus favoritos, del más antiguo al más nuevo",
    errors: { types: [...CALLER, ...LOOKUP], dataField: { description: "Los lugares" } },
    resolve: (_root, _args, ctx) => savedPlaces(ctx.deps, ctx.actor),
  }),
}));

builder.mutationFields((t) => ({
  savePlace: t.field({
    type: SavedPlaceRef,
    description: `Quien llama guarda un lugar: su casa o su trabajo (reemplaza el que tenía) o un favorito (hasta ${MAX_FAVOURITES})`,
    errors: { types: [...CALLER, ...LOOKUP, ConflictError] },
    args: { input: t.arg({ type: SavedPlaceInput, required: true, description: "El lugar" }) },
    resolve: (_root, { input }, ctx) => savePlace(ctx.deps, ctx.actor, input),
  }),
  removeSavedPlace: t.field({
    type: Deleted,
    description: "Quien llama quita uno de sus lugares guardados",
    errors: { types: [...CALLER, ...LOOKUP] },
    args: { lugar_id: t.arg.int({ required: true, description: "El lugar" }) },
    resolve: async (_root, args, ctx) => ({ id: await removeSavedPlace(ctx.deps, ctx.actor, args) }),
  }),
}));
