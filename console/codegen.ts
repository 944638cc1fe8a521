import type { CodegenConfig } from "@graphql-codegen/cli";

// Typed documents for the `.graphql` files beside the pages, checked against the printed schema:
// a schema change that breaks one fails `npm run build` here or in the console's typecheck.
const config: CodegenConfig = {
  schema: "schema.graphql",
  documents: ["console/src/**/*.graphql"],
  ignoreNoDocuments: false,
  generates: {
    "console/src/gql/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: "string",
        enumType: "const",
        useTypeImports: true,
        nonOptionalTypename: true,
        scalars: { DateTime: "string" },
      },
    },
  },
};

export default config;
