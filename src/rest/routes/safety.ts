import { z } from "zod";
import { optional } from "../../domain/validation.js";
import { legacyId, legacyText } from "../legacy-fields.js";
import { EMERGENCY_CONTACT, selection } from "../resources.js";
import { defineRoute, operation } from "../route.js";

/* A person's emergency contacts, for the app's next version: up to 3, each a name and a Colombian mobile, an e-mail or both. */

const PATH = "/user/contactos_emergencia.php";
const caller = { usuario_id: legacyId() };
const CONTACT_FIELDS = selection(EMERGENCY_CONTACT);

export const safetyRoutes = [
  defineRoute({
    method: "GET",
    path: PATH,
    summary: "Los contactos de emergencia del usuario, del más antiguo al más nuevo",
    input: z.object(caller),
    caller: "usuario_id",
    document: operation(`query EmergencyContacts {
      emergencyContacts { ...LegacyError ... on QueryEmergencyContactsSuccess { data { ${CONTACT_FIELDS} } } }
    }`),
    variables: () => ({}),
    output: z.object({ contactos: z.array(EMERGENCY_CONTACT) }),
    respond: (result) => ({ contactos: result.data }),
  }),
  defineRoute({
    method: "POST",
    path: PATH,
    summary: "El usuario agrega un contacto de emergencia (hasta 3): nombre, y un celular colombiano, un correo o ambos",
    input: z.object({ ...caller, nombre: legacyText(), telefono: optional(legacyText()), email: optional(legacyText()) }),
    caller: "usuario_id",
    document: operation(`mutation AddEmergencyContact($input: ContactoEmergenciaInput!) {
      addEmergencyContact(input: $input) { ...LegacyError ... on ContactoEmergencia { ${CONTACT_FIELDS} } }
    }`),
    variables: ({ usuario_id: _caller, ...input }) => ({ input }),
    output: z.object({ contacto: EMERGENCY_CONTACT }),
    respond: (contacto) => ({ message: "Contacto de emergencia agregado", contacto }),
  }),
  defineRoute({
    method: "DELETE",
    path: PATH,
    summary: "El usuario quita uno de sus contactos de emergencia",
    input: z.object({ ...caller, contacto_id: legacyId() }),
    caller: "usuario_id",
    document: operation(`mutation RemoveEmergencyContact($contacto_id: Int!) {
      removeEmergencyContact(contacto_id: $contacto_id) { ...LegacyError ... on Eliminado { id } }
    }`),
    variables: ({ contacto_id }) => ({ contacto_id }),
    output: z.object({ contacto_id: z.int() }),
    respond: (removed) => ({ message: "Contacto de emergencia eliminado", contacto_id: removed.id }),
  }),
];
