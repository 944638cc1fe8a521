import { LEGACY_STATUS } from "../../src/rest/status.js";
import { describe, expect, it } from "vitest";
import { ConflictError, InvalidStateError } from "../../src/domain/errors.js";
import { TRIGGERS, TRIP_STATES, nextState, type Trigger, type TripState } from "../../src/domain/trip-states.js";

// What every trigger does in every state: the next state, or the error class (and so the status).
const EXPECTED: Record<TripState, Record<Trigger, TripState | typeof InvalidStateError | typeof ConflictError>> = {
  pendiente: {
    aceptar: "aceptado",
    iniciar_ruta: InvalidStateError,
    iniciar: InvalidStateError,
    completar: InvalidStateError,
    cancelar: "cancelado",
  },
  aceptado: { aceptar: ConflictError, iniciar_ruta: "en_ruta", iniciar: "en_curso", completar: "completado", cancelar: "cancelado" },
  en_ruta: { aceptar: ConflictError, iniciar_ruta: InvalidStateError, iniciar: "en_curso", completar: "completado", cancelar: "cancelado" },
  en_curso: {
    aceptar: ConflictError,
    iniciar_ruta: InvalidStateError,
    iniciar: InvalidStateError,
    completar: "completado",
    cancelar: "cancelado",
  },
  completado: {
    aceptar: InvalidStateError,
    iniciar_ruta: InvalidStateError,
    iniciar: InvalidStateError,
    completar: InvalidStateError,
    cancelar: InvalidStateError,
  },
  cancelado: {
    aceptar: InvalidStateError,
    iniciar_ruta: InvalidStateError,
    iniciar: InvalidStateError,
    completar: InvalidStateError,
    cancelar: InvalidStateError,
  },
};

const cases = TRIP_STATES.flatMap((state) => TRIGGERS.map((trigger) => [state, trigger] as const));

describe("the trip state machine", () => {
  it("covers every state and trigger", () => {
    expect(cases).toHaveLength(30);
  });

  it.each(cases)("%s + %s", (state, trigger) => {
    const expected = EXPECTED[state][trigger];
    if (typeof expected === "string") {
      expect(nextState(state, trigger)).toBe(expected);
    } else {
      expect(() => nextState(state, trigger)).toThrow(expected);
    }
  });

  it("answers 400 for every change to a finished trip, naming its state", () => {
    for (const state of ["completado", "cancelado"] as const) {
      for (const trigger of TRIGGERS) {
        try {
          nextState(state, trigger);
          expect.unreachable();
        } catch (error) {
          expect(LEGACY_STATUS[(error as InvalidStateError).code]).toBe(400);
          expect((error as Error).message).toBe(`El viaje ya está ${state}; no admite más cambios`);
        }
      }
    }
  });

  it("refuses to start or complete a trip without a driver", () => {
    expect(() => nextState("pendiente", "iniciar")).toThrow("El viaje aún no tiene un conductor asignado");
    expect(() => nextState("pendiente", "completar")).toThrow("El viaje aún no tiene un conductor asignado");
  });

  it("tells a late driver that the trip was taken (409)", () => {
    expect(() => nextState("aceptado", "aceptar")).toThrow("El viaje ya fue tomado por otro conductor");
    expect(LEGACY_STATUS[new ConflictError("x").code]).toBe(409);
  });
});
