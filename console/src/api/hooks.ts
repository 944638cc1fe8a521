import type { TypedDocumentString } from "../gql/graphql";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, request } from "./request";

export interface QueryState<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : "Ocurrió un error inesperado. Inténtalo de nuevo.");

/**
 * Runs a query whenever its variables change and keeps what `pick` takes from its answer (the
 * success member of a result union, through `success`); what `pick` throws becomes `error`. The
 * previous data stays on screen while the next page or filter loads.
 */
export function useQuery<R, V, T>(document: TypedDocumentString<R, V>, variables: V, pick: (data: R) => T): QueryState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [version, setVersion] = useState(0);
  // What the effect depends on, by value: the variables, and how many reloads were asked for.
  const key = JSON.stringify([variables, version]);
  // The latest pick, without making the caller memoize it.
  const pickRef = useRef(pick);
  pickRef.current = pick;

  useEffect(() => {
    let current = true;
    setLoading(true);
    request(document, (JSON.parse(key) as [V, number])[0])
      .then((result) => {
        if (!current) return;
        setData(pickRef.current(result));
        setError(null);
      })
      .catch((reason: unknown) => current && setError(messageOf(reason)))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [document, key]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, loading, reload };
}

export interface MutationState<V, T> {
  run: (variables: V) => Promise<T | null>;
  running: boolean;
  error: string | null;
  clearError: () => void;
}

/** A mutation: `run` resolves to what `pick` takes from its answer, or to null after setting `error`. */
export function useMutation<R, V, T>(document: TypedDocumentString<R, V>, pick: (data: R) => T): MutationState<V, T> {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pickRef = useRef(pick);
  pickRef.current = pick;
  const run = useCallback(
    async (variables: V) => {
      setRunning(true);
      setError(null);
      try {
        return pickRef.current(await request(document, variables));
      } catch (reason) {
        setError(messageOf(reason));
        return null;
      } finally {
        setRunning(false);
      }
    },
    [document],
  );
  return { run, running, error, clearError: useCallback(() => setError(null), []) };
}
