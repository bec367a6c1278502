import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './Button.js';
import { useFocusTrap } from './focus-trap.js';

/**
 * An in-page confirmation (role=alertdialog): what the browser's confirm() did, in the client's style, with focus
 * kept inside, Escape and the backdrop cancelling, and focus starting on the safe choice (Cancel).
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  danger,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  useFocusTrap(ref, onCancel, '[data-cancel]');
  return createPortal(
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onCancel()}>
      <div className="dialog" role="alertdialog" aria-modal="true" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} ref={ref}>
        <div className="dialog__head">
          <h2 className="dialog__title" id={`${id}-t`}>
            {title}
          </h2>
        </div>
        <div className="dialog__body confirm__body" id={`${id}-d`}>
          {children}
        </div>
        <div className="dialog__foot">
          <Button variant="link" data-cancel onClick={onCancel}>
            Cancel
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
