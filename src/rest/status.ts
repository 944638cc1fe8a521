import { HTTP_STATUS } from "../http/status.js";
import type { ErrorCode } from "../domain/errors.js";

/** The legacy interface's status for each domain error (docs/legacy-api.md, "Requests and answers"). */
export const LEGACY_STATUS: Record<ErrorCode, number> = {
  ...HTTP_STATUS,
  // A business refusal that legacy clients expect as HTTP 200 with success false.
  NO_DRIVERS_AVAILABLE: 200,
  // The app shows a refusal's message only from a 200 (ConductorService.actualizarDisponibilidad).
  DEBT_LIMIT: 200,
  // The legacy interface counts routing and geocoding failures as server errors (docs/legacy-api.md).
  UPSTREAM_UNAVAILABLE: 500,
};
