import { useEffect, useState } from 'react';

/** Short notices at the bottom of the screen ("Copied", or an error no screen owns). */
type Toast = { id: number; text: string; error?: boolean };
let listeners: ((t: Toast[]) => void)[] = [];
let toasts: Toast[] = [];
let next = 1;

export function toast(text: string, error = false): void {
  const t = { id: next++, text, error };
  toasts = [...toasts, t];
  listeners.forEach((l) => l(toasts));
  setTimeout(() => {
    toasts = toasts.filter((x) => x.id !== t.id);
    listeners.forEach((l) => l(toasts));
  }, 4000);
}

export function Toasts() {
  const [list, setList] = useState<Toast[]>(toasts);
  useEffect(() => {
    listeners.push(setList);
    return () => {
      listeners = listeners.filter((l) => l !== setList);
    };
  }, []);
  if (!list.length) return null;
  return (
    <div className="toast-stack" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className={t.error ? 'toast toast--error' : 'toast'} role={t.error ? 'alert' : 'status'}>
          {t.text}
        </div>
      ))}
    </div>
  );
}
