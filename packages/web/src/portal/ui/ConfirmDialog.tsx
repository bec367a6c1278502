import type { ReactNode } from 'react';
import { Button, Dialog } from '../../lib/ui/index.js';

/** "Are you sure?" for actions that break something (token and secret resets, deletions). */
export function ConfirmDialog({
  title,
  children,
  confirm,
  danger,
  busy,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirm: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button variant="link" onClick={onClose}>
            Cancel
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} busy={busy} onClick={onConfirm}>
            {confirm}
          </Button>
        </>
      }
    >
      <div className="dialog__text">{children}</div>
    </Dialog>
  );
}
