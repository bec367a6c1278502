import type { ReactNode } from 'react';

/** A titled block of a portal page. */
export function Section({ title, description, actions, children }: { title: string; description?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="p-section">
      <div className="p-section__head">
        <div className="grow">
          <h2 className="p-section__title">{title}</h2>
          {description ? <p className="p-section__desc">{description}</p> : null}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** The title block at the top of a page. */
export function PageHead({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="p-head">
      <h1 className="p-head__title">{title}</h1>
      {children ? <p className="p-head__desc">{children}</p> : null}
    </header>
  );
}
