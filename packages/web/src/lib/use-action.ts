import { useCallback, useState } from 'react';
import { ApiError } from './api/errors.js';

/**
 * Runs one async action at a time for a form or a button: `busy` while it runs, the error it threw (kept until
 * the next run), and the field errors of a 50035 answer.
 */
export function useAction<A extends unknown[]>(fn: (...args: A) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(null);
      try {
        await fn(...args);
      } catch (err) {
        setError(err);
      } finally {
        setBusy(false);
      }
    },
    [fn],
  );
  const fieldError = (f: string) => (error instanceof ApiError ? error.field(f) : undefined);
  return { busy, error, run, fieldError, setError };
}
