import type { ReactNode } from 'react';

/** The centered card of the sign-in screens, over a calm gradient. */
export function AuthShell({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <main className="auth">
      <div className="auth__brand" aria-hidden>
        <svg width="28" height="28" viewBox="0 0 32 32">
          <rect width="32" height="32" rx="10" fill="#5865f2" />
          <path d="M9 22l7-13 7 13" stroke="white" strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span>Accord</span>
      </div>
      <div className="auth__card">
        <h1 className="auth__title">{title}</h1>
        {subtitle ? <p className="auth__sub">{subtitle}</p> : null}
        {children}
      </div>
    </main>
  );
}
