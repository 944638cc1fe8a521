export declare function prisma(provider: string, args: string[]): string;
export declare function migrationSql(provider: string, from: string | undefined, to: string): string;
