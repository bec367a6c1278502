import './consent.css';
import type { ReactNode } from 'react';

/** The brand over the calm gradient of the sign-in screens, and one card. */
export function ConsentShell({ children, label = 'Authorize application' }: { children: ReactNode; label?: string }) {
  return (
    <main className="auth consent-page">
      <div className="auth__brand" aria-hidden>
        <svg width="28" height="28" viewBox="0 0 32 32">
          <rect width="32" height="32" rx="10" fill="#5865f2" />
          <path d="M9 22l7-13 7 13" stroke="white" strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span>Accord</span>
      </div>
      <section className="consent" aria-label={label}>
        {children}
      </section>
    </main>
  );
}
