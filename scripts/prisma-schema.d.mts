export declare const SOURCE_SCHEMA: string;
export declare const POSTGRES_SCHEMA: string;
export declare const PROVIDERS: Array<"sqlite" | "postgresql">;
export declare const SNAPSHOT: string;
export declare function migrationsDir(provider: string): string;
export declare function derivePostgresSchema(source: string): string;
export declare function schemaFor(provider: string, source?: string): string;
export declare function listMigrations(provider: string, root?: string): string[];
