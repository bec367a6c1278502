import type { ReactNode } from 'react';
import { Icon } from './Icon.js';

/** Loading, empty and error states: every screen uses these, so they look the same everywhere. */

export function Spinner({ small, label = 'Loading' }: { small?: boolean; label?: string }) {
  return <span className={small ? 'spinner spinner--sm' : 'spinner'} role="status" aria-label={label} />;
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" aria-live="polite">
      <Spinner />
      <div className="state__body">{label}</div>
    </div>
  );
}

export function Empty({ icon = 'hash', title, children, action }: { icon?: string; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="state">
      <div className="state__icon">
        <Icon name={icon} size={28} />
      </div>
      <div className="state__title">{title}</div>
      {children ? <div className="state__body">{children}</div> : null}
      {action}
    </div>
  );
}

export function ErrorState({ title = 'Something went wrong', message, onRetry }: { title?: string; message: string; onRetry?: () => void }) {
  return (
    <div className="state state--error" role="alert">
      <div className="state__icon">
        <Icon name="warn" size={28} />
      </div>
      <div className="state__title">{title}</div>
      <div className="state__body">{message}</div>
      {onRetry ? (
        <button type="button" className="btn btn--secondary btn--sm" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Banner({ kind = 'error', children }: { kind?: 'error' | 'info' | 'warn'; children: ReactNode }) {
  return (
    <div className={kind === 'error' ? 'banner' : `banner banner--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <Icon name={kind === 'info' ? 'check' : 'warn'} size={16} />
      <span>{children}</span>
    </div>
  );
}
