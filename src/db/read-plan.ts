import { READ_MODEL } from "../generated/read-model.js";
import type { Provider } from "./url.js";

/*
 * Simple reads (a row by a unique key, rows by plain conditions, with the rows they point to)
 * planned as one SQL statement, for the driver to run directly: the ORM costs a hundred times
 * the database's own time on such a read. What this does not plan is left to Prisma (`null`).
 */

type ModelName = keyof typeof READ_MODEL;
interface Scalar {
  column: string;
  type: string;
  list: boolean;
}
interface Relation {
  model: string;
  list: boolean;
  local: readonly string[];
  foreign: readonly string[];
}
interface Model {
  table: string;
  scalars: Record<string, Scalar>;
  relations: Record<string, Relation>;
}
const MODELS: Record<string, Model> = READ_MODEL;

/** The Prisma model a client delegate (`trip`, `driverProfile`) reads. */
export const modelOf = (delegate: string): ModelName | undefined => {
  const name = delegate[0]!.toUpperCase() + delegate.slice(1);
  return name in READ_MODEL ? (name as ModelName) : undefined;
};

export type ReadKind = "findUnique" | "findFirst" | "findMany";

/** A read made SQL: its statement, its parameters, and how its rows become Prisma's objects. */
export interface Planned {
  sql: string;
  params: unknown[];
  build(rows: unknown[][]): Record<string, unknown>[];
}

/** A read's conditions as SQL, `?` for each value, and its values in order (then take and skip). */
interface Walk {
  where: string[];
  params: unknown[];
}

interface Shape {
  sql: string;
  build(rows: unknown[][]): Record<string, unknown>[];
}

/** One object of the answer: its scalars at these row positions, and its joined relations. */
interface Node {
  /** The position of a column that is never null when the row exists (for relations that may be absent). */
  marker: number | null;
  fields: Array<[name: string, at: number, decode: (value: unknown) => unknown]>;
  relations: Array<[name: string, node: Node]>;
}

const OPERATORS: Record<string, string> = { lt: "<", lte: "<=", gt: ">", gte: ">=" };
/** The column types read and compared here; a model with others is left to Prisma. */
const TYPES = new Set(["Int", "Float", "String", "Boolean", "DateTime"]);

/**
 * Plans a read, or says it cannot (`null`). Statements are kept by the read's shape (its fields,
 * conditions and relations, not its values), so a read of a shape seen before costs a walk of
 * its arguments.
 */
export class ReadPlanner {
  readonly #provider: Provider;
  readonly #shapes = new Map<string, Shape | null>();

  constructor(provider: Provider) {
    this.#provider = provider;
  }

  plan(model: ModelName, kind: ReadKind, args: Record<string, unknown> | undefined): Planned | null {
    const walk: Walk = { where: [], params: [] };
    if (!this.#walk(MODELS[model]!, kind, args ?? {}, walk)) return null;
    const { select = null, include = null, orderBy = null, take, skip } = args ?? {};
    // The conditions with their placeholders name the shape; the rest of it is what is read and how.
    const key = JSON.stringify([model, kind, walk.where, select, include, orderBy, take !== undefined, skip !== undefined]);
    let shape = this.#shapes.get(key);
    if (shape === undefined) {
      shape = this.#shape(model, kind, args ?? {}, walk.where);
      this.#shapes.set(key, shape);
    }
    return shape && { sql: shape.sql, params: walk.params, build: shape.build };
  }

  /** The conditions, as SQL with `?` for each value, and the values in the statement's order; false for what is not planned. */
  #walk(model: Model, kind: ReadKind, args: Record<string, unknown>, walk: Walk): boolean {
    for (const name of Object.keys(args)) {
      if (!["where", "select", "include", "orderBy", "take", "skip"].includes(name)) return false;
    }
    if (kind !== "findMany" && (args.take !== undefined || args.skip !== undefined)) return false;
    if (kind === "findUnique" && !isRecord(args.where)) return false;
    if (!this.#conditions(model, args.where, walk)) return false;
    for (const bound of ["take", "skip"] as const) {
      const value = args[bound];
      if (value === undefined) continue;
      if (!Number.isInteger(value) || (value as number) < 0) return false;
      walk.params.push(value);
    }
    return true;
  }

  #conditions(model: Model, where: unknown, walk: Walk): boolean {
    if (where === undefined) return true;
    if (!isRecord(where)) return false;
    for (const [name, condition] of Object.entries(where)) {
      if (condition === undefined) continue;
      const scalar = model.scalars[name];
      if (!scalar) {
        // A compound unique key (`viaje_id_conductor_id: { viaje_id, conductor_id }`): its parts.
        // Anything else (a relation's filter, AND, OR, NOT) is not planned.
        if (!isRecord(condition) || model.relations[name] || Object.keys(condition).join("_") !== name) return false;
        if (!Object.keys(condition).every((part) => model.scalars[part])) return false;
        if (!this.#conditions(model, condition, walk)) return false;
        continue;
      }
      if (scalar.list) return false;
      const column = `t0.${scalar.column}`;
      if (!isRecord(condition) || condition instanceof Date) {
        if (!this.#compare(scalar, column, "=", condition, walk)) return false;
        continue;
      }
      for (const [operator, value] of Object.entries(condition)) {
        if (value === undefined) continue;
        if (operator === "in") {
          if (!Array.isArray(value)) return false;
          if (value.length === 0) walk.where.push("1 = 0");
          else {
            for (const item of value) if (item === null || !this.#bind(scalar, item, walk)) return false;
            walk.where.push(`${column} IN (${value.map(() => "?").join(", ")})`);
          }
        } else if (operator === "equals") {
          if (!this.#compare(scalar, column, "=", value, walk)) return false;
        } else if (operator in OPERATORS) {
          if (value === null || !this.#compare(scalar, column, OPERATORS[operator]!, value, walk)) return false;
        } else if (operator === "not" && value === null) {
          walk.where.push(`${column} IS NOT NULL`);
        } else return false;
      }
    }
    return true;
  }

  /** `column operator value`, null being IS NULL. */
  #compare(scalar: Scalar, column: string, operator: string, value: unknown, walk: Walk): boolean {
    if (value === null) {
      walk.where.push(`${column} IS NULL`);
      return true;
    }
    if (!this.#bind(scalar, value, walk)) return false;
    walk.where.push(`${column} ${operator} ?`);
    return true;
  }

  /** A value compared with a column: kept as a parameter in the form the driver binds it. */
  #bind(scalar: Scalar, value: unknown, walk: Walk): boolean {
    const bound = bind(this.#provider, scalar.type, value);
    if (bound === undefined) return false;
    walk.params.push(bound);
    return true;
  }

  #shape(name: ModelName, kind: ReadKind, args: Record<string, unknown>, where: string[]): Shape | null {
    const columns: string[] = [];
    const decoders: Array<(value: unknown) => unknown> = [];
    const joins: string[] = [];
    const provider = this.#provider;
    const column = (alias: string, scalar: Scalar) => {
      columns.push(`${alias}.${scalar.column}`);
      decoders.push(decoder(provider, scalar.type));
      return columns.length - 1;
    };

    const node = (model: Model, alias: string, spec: Record<string, unknown>, marker: string | null): Node | null => {
      for (const key of Object.keys(spec)) if (key !== "select" && key !== "include") return null;
      const select = spec.select as Record<string, unknown> | undefined;
      const include = spec.include as Record<string, unknown> | undefined;
      if (select && include) return null;
      const result: Node = { marker: null, fields: [], relations: [] };
      if (marker) result.marker = column(alias, model.scalars[marker]!);
      for (const [field, scalar] of Object.entries(model.scalars)) {
        if (select && select[field] !== true) continue;
        if (scalar.list || !TYPES.has(scalar.type)) return null;
        const at = column(alias, scalar);
        result.fields.push([field, at, decoders[at]!]);
      }
      for (const [field, wanted] of Object.entries(select ?? include ?? {})) {
        if (wanted === false || wanted === undefined || model.scalars[field]) continue;
        const relation = model.relations[field];
        if (!relation || relation.list) return null;
        if (wanted !== true && !isRecord(wanted)) return null;
        const other = MODELS[relation.model]!;
        const otherAlias = `t${joins.length + 1}`;
        const on = relation.foreign.map(
          (f, i) => `${otherAlias}.${other.scalars[f]!.column} = ${alias}.${model.scalars[relation.local[i]!]!.column}`,
        );
        joins.push(`LEFT JOIN ${other.table} ${otherAlias} ON ${on.join(" AND ")}`);
        const child = node(other, otherAlias, wanted === true ? {} : wanted, relation.foreign[0]!);
        if (!child) return null;
        result.relations.push([field, child]);
      }
      return result;
    };

    const model = MODELS[name]!;
    const root = node(model, "t0", { select: args.select, include: args.include }, null);
    if (!root) return null;
    const order = orderBy(model, args.orderBy);
    if (order === null) return null;
    let sql = `SELECT ${columns.join(", ")} FROM ${model.table} t0 ${joins.join(" ")}`;
    if (where.length > 0) sql += ` WHERE ${where.join(" AND ")}`;
    if (order) sql += ` ORDER BY ${order}`;
    if (kind !== "findMany") sql += " LIMIT 1";
    else {
      if (args.take !== undefined) sql += " LIMIT ?";
      if (args.skip !== undefined) sql += `${args.take === undefined && provider === "sqlite" ? " LIMIT -1" : ""} OFFSET ?`;
    }
    // Names and columns have no "?": each one is a value's place, numbered on PostgreSQL. SQLite
    // plans a statement again at every run when its planner looked at a bound value (in a join's
    // WHERE, in a LIMIT), which costs several times the read itself; it does not look into `+?`,
    // which compares and limits as `?` does.
    let place = 0;
    sql = provider === "postgresql" ? sql.replace(/\?/g, () => `$${++place}`) : sql.replace(/\?/g, "+?");
    return { sql: sql.replace(/\s+/g, " ").trim(), build: (rows) => rows.map((row) => assemble(root, row)) };
  }
}

function orderBy(model: Model, order: unknown): string | null {
  if (order === undefined) return "";
  const terms: string[] = [];
  for (const item of Array.isArray(order) ? order : [order]) {
    if (!isRecord(item)) return null;
    for (const [field, direction] of Object.entries(item)) {
      const scalar = model.scalars[field];
      if (!scalar || (direction !== "asc" && direction !== "desc")) return null;
      terms.push(`t0.${scalar.column} ${direction.toUpperCase()}`);
    }
  }
  return terms.join(", ");
}

function assemble(node: Node, row: unknown[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, at, decode] of node.fields) result[name] = decode(row[at]);
  for (const [name, child] of node.relations) result[name] = row[child.marker!] === null ? null : assemble(child, row);
  return result;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A value as the driver binds it for a column of this type, as Prisma's adapters do; undefined when it does not fit. */
function bind(provider: Provider, type: string, value: unknown): unknown {
  switch (type) {
    case "Int":
      return Number.isInteger(value) ? value : undefined;
    case "Float":
      return typeof value === "number" ? value : undefined;
    case "String":
      return typeof value === "string" ? value : undefined;
    case "Boolean":
      if (typeof value !== "boolean") return undefined;
      return provider === "sqlite" ? (value ? 1 : 0) : value;
    case "DateTime":
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) return undefined;
      // SQLite keeps ISO 8601 text; PostgreSQL a timestamp without zone, in UTC.
      return provider === "sqlite" ? value.toISOString().replace("Z", "+00:00") : value.toISOString().replace("T", " ").slice(0, -1);
    default:
      return undefined;
  }
}

const identity = (value: unknown) => value;
const sqliteBoolean = (value: unknown) => (value === null ? null : value === 1 || value === 1n);
/** A DateTime as stored: ISO text (SQLite), text without zone in UTC (PostgreSQL, read as text), or epoch milliseconds. */
const dateTime = (value: unknown) => {
  if (value === null) return null;
  if (typeof value === "number") return new Date(value);
  const text = String(value);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(" ", "T")}Z`);
};

function decoder(provider: Provider, type: string): (value: unknown) => unknown {
  if (type === "DateTime") return dateTime;
  if (type === "Boolean" && provider === "sqlite") return sqliteBoolean;
  return identity;
}
