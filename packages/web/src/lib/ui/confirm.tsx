import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfirmDialog } from './ConfirmDialog.js';

/**
 * The in-page replacement for window.confirm(): resolves true or false once the person chooses. It mounts its own
 * root, so the component that asked (a hover toolbar, a menu) may go away while the question is open.
 */
export function confirmInPage(opts: { title: string; body: ReactNode; confirmLabel: string; danger?: boolean }): Promise<boolean> {
  return new Promise((resolve) => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    const done = (yes: boolean) => {
      root.unmount();
      host.remove();
      resolve(yes);
    };
    root.render(
      <ConfirmDialog title={opts.title} confirmLabel={opts.confirmLabel} danger={opts.danger} onConfirm={() => done(true)} onCancel={() => done(false)}>
        {opts.body}
      </ConfirmDialog>,
    );
  });
}
