import { useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useFocusTrap } from './focus-trap.js';
import { Icon } from './Icon.js';

/** A modal dialog: Escape and the backdrop close it, focus moves inside and stays there. */
export function Dialog({
  title,
  subtitle,
  onClose,
  children,
  footer,
  wide,
  label,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  label?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref, onClose, 'input, textarea, select, button:not(.dialog__close)');
  // In <body>: a dialog opened from a virtualized (transformed) row must not be positioned inside it.
  return createPortal(
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className={wide ? 'dialog dialog--wide' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-label={label ?? (typeof title === 'string' ? title : undefined)}
        ref={ref}
      >
        <div className="dialog__head">
          <div className="grow">
            <div className="dialog__title">{title}</div>
            {subtitle ? <div className="dialog__sub">{subtitle}</div> : null}
          </div>
          <button type="button" className="icon-btn dialog__close" aria-label="Close" onClick={onClose}>
            <Icon name="x" />
          </button>
        </div>
        <div className="dialog__body">{children}</div>
        {footer ? <div className="dialog__foot">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
