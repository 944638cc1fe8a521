export function declaredNode(root?: string): { wanted: string; range: string };
export function fits(version: string, caret: string): boolean;
