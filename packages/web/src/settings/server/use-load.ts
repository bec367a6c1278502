import { useCallback, useEffect, useState } from 'react';

/** Loads a list when a section opens; `reload` fetches it again after a change. Errors are kept for the screen. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    try {
      setData(await load());
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, deps);
  useEffect(() => void reload(), [reload]);
  return { data, error, reload, setData };
}
