import { useEffect, useState } from 'react';

/**
 * True once `ms` have passed since `key` last changed. Things created over HTTP (a guild, a thread, a DM) reach
 * the store over the Gateway a moment later; screens wait that long before saying "not found".
 */
export function useLater(key: string, ms = 5000): boolean {
  const [late, setLate] = useState(false);
  useEffect(() => {
    setLate(false);
    const t = setTimeout(() => setLate(true), ms);
    return () => clearTimeout(t);
  }, [key]);
  return late;
}
