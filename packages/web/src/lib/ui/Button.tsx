import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from './States.js';

type Variant = 'primary' | 'secondary' | 'success' | 'danger' | 'link' | 'premium';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: 'md' | 'sm';
  block?: boolean;
  /** Shows a spinner and blocks clicks while an action runs. */
  busy?: boolean;
  children?: ReactNode;
}

export function Button({ variant = 'primary', size = 'md', block, busy, className, children, disabled, ...rest }: ButtonProps) {
  const cls = ['btn', variant !== 'primary' && `btn--${variant}`, size === 'sm' && 'btn--sm', block && 'btn--block', className].filter(Boolean).join(' ');
  return (
    <button type="button" {...rest} className={cls} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy ? <Spinner small /> : children}
    </button>
  );
}
