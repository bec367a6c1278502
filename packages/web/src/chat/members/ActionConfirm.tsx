import { useRef, useState, type ReactNode } from 'react';
import { readableError } from '../../lib/api/errors.js';
import { Banner, ConfirmDialog } from '../../lib/ui/index.js';

/**
 * An in-page confirmation whose action is a request: it stays open while the request runs and shows the API's error
 * in place (a refused kick says why, under the question), and closes once it succeeded.
 */
export function ActionConfirm({
  title,
  confirmLabel,
  danger,
  run,
  onSuccess,
  onCancel,
  children,
}: {
  title: string;
  confirmLabel: string;
  danger?: boolean;
  run: () => Promise<unknown>;
  onSuccess: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const confirm = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await run();
      onSuccess();
    } catch (err) {
      setError(readableError(err));
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog title={title} confirmLabel={busy ? 'Working…' : confirmLabel} danger={danger} onConfirm={() => void confirm()} onCancel={onCancel}>
      {children}
      {error ? <Banner>{error}</Banner> : null}
    </ConfirmDialog>
  );
}
