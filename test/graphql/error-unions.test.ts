import { getNamedType, isUnionType, type GraphQLField, type GraphQLObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOMAIN_ERRORS } from "../../src/domain/errors.js";
import { schema } from "../../src/graphql/schema.js";
import { createLogger } from "../../src/logger.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { logLines } from "../support/log.js";
import { createDriver, createPassenger, ESTADIO, LLERAS } from "../support/trips.js";

const roots = [schema.getQueryType()!, schema.getMutationType()!];
const rootFields = roots.flatMap((root: GraphQLObjectType) =>
  Object.values(root.getFields()).map((field) => ({ name: `${root.name}.${field.name}`, field })),
);

/** The error types a root field's result union lists, sorted by name. */
function errorsOf(field: GraphQLField<unknown, unknown>): string[] {
  const result = getNamedType(field.type);
  if (!isUnionType(result)) return [];
  return result
    .getTypes()
    .filter((type) => type.getInterfaces().some((face) => face.name === "Error"))
    .map((type) => type.name)
    .sort();
}

const rootField = (name: string) => rootFields.find((root) => root.name === name)!.field;

/** Operations nothing a caller sends can make fail: a database that does not answer is a 503, as everywhere. */
const INFALLIBLE = ["Query.serviceStatus"];

describe("each operation's result union", () => {
  it("lists some errors, never all of them", () => {
    expect(errorsOf(rootField(INFALLIBLE[0]!))).toEqual([]);
    for (const { name, field } of rootFields.filter((root) => !INFALLIBLE.includes(root.name))) {
      expect(errorsOf(field).length, name).toBeGreaterThan(0);
      expect(errorsOf(field).length, name).toBeLessThan(DOMAIN_ERRORS.length);
    }
  });

  it("lists exactly the errors its resolver can throw", () => {
    expect(errorsOf(rootField("Mutation.login"))).toEqual([
      "AccountDisabledError",
      "InvalidCredentialsError",
      "NotFoundError",
      "RateLimitError",
      "ValidationError",
    ]);
    expect(errorsOf(rootField("Query.fareEstimate"))).toEqual(["UpstreamError", "ValidationError"]);
    expect(errorsOf(rootField("Mutation.uploadDocument"))).toEqual([
      "NotFoundError",
      "PayloadTooLargeError",
      "UnauthenticatedError",
      "ValidationError",
    ]);
    expect(errorsOf(rootField("Mutation.createTrip"))).toEqual([
      "AccountDisabledError",
      "ConflictError",
      "NoDriversAvailableError",
      "NotFoundError",
      "UnauthenticatedError",
      "UpstreamError",
      "ValidationError",
    ]);
    expect(errorsOf(rootField("Query.notifications"))).toEqual(["UnauthenticatedError"]);
    // The rule trusts legacy calls that name nobody, so only somebody else is refused.
    expect(errorsOf(rootField("Mutation.startTrip"))).toEqual(["ForbiddenError", "InvalidStateError", "NotFoundError", "ValidationError"]);
  });

  it("lists the rarer errors only where they can happen", () => {
    const listing = (error: string) =>
      rootFields
        .filter(({ field }) => errorsOf(field).includes(error))
        .map(({ name }) => name)
        .sort();
    expect(listing("PayloadTooLargeError")).toEqual(["Mutation.uploadDocument"]);
    expect(listing("NoDriversAvailableError")).toEqual(["Mutation.createTrip"]);
    expect(listing("InvalidCredentialsError")).toEqual(["Mutation.changePassword", "Mutation.login"]);
    expect(listing("UpstreamError")).toEqual([
      "Mutation.bookTrip",
      "Mutation.changeReservation",
      "Mutation.createTrip",
      "Mutation.requestTripChange",
      "Query.distance",
      "Query.fareEstimate",
      "Query.geocode",
      "Query.reverseGeocode",
      "Query.route",
      "Query.searchPlaces",
    ]);
  });

  it("of a public operation never asks the caller to sign in", () => {
    const open = rootFields.filter(({ field }) => field.extensions.public === true);
    expect(open.map(({ name }) => name)).toContain("Query.fareEstimate");
    for (const { name, field } of open) expect(errorsOf(field), name).not.toContain("UnauthenticatedError");
  });
});

describe("an unexpected failure inside an operation", () => {
  /** Every line the service logs, parsed. */
  const { lines, sink } = logLines();
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ log: createLogger({ LOG_LEVEL: "error" }, sink) });
  });
  afterAll(() => app.close());

  it("is answered 500 with a generic message, over GraphQL and the legacy calls, and logged with what happened", async () => {
    // The migrations install a rate for every vehicle; without one, pricing fails as a broken database would.
    await app.db.pricingRate.deleteMany({ where: { tipo_vehiculo: "auto" } });
    const response = await app.graphql(
      `query ($input: CreateTripInput!) { fareEstimate(input: $input) { __typename ... on Error { code message } } }`,
      { input: { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO } },
    );
    expect(response.status).toBe(500);
    expect(response.errors).toEqual([expect.objectContaining({ message: "Error interno del servidor", extensions: { code: "INTERNAL" } })]);
    expect(JSON.stringify(response)).not.toContain("pricing");
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: "unexpected error in a GraphQL operation",
        err: expect.objectContaining({ message: "No pricing rate for auto" }),
      }),
    );

    const passenger = await createPassenger(app);
    // With a car nearby: the trip is priced only when there is someone to take it.
    await createDriver(app);
    const legacy = await app.legacy("POST", "/viajes/create_trip.php", {
      usuario_id: passenger.id,
      tipo_servicio: "auto",
      origen: LLERAS,
      destino: ESTADIO,
    });
    expect(legacy).toMatchObject({ status: 500, body: { success: false, message: "Error interno del servidor" } });
  });
});
