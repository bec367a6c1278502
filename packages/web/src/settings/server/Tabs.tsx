import { useId, type ReactNode } from 'react';

/** A row of tabs over one panel (the tab pattern: tablist, tabs that control the panel, the panel labelled by its tab). */
export function Tabs<T extends string>({
  label,
  tabs,
  value,
  onChange,
  children,
}: {
  label: string;
  tabs: readonly (readonly [T, string])[];
  value: T;
  onChange: (t: T) => void;
  children: ReactNode;
}) {
  const ids = useId();
  return (
    <>
      <div className="ss-tabs" role="tablist" aria-label={label}>
        {tabs.map(([id, text]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`${ids}-t${id}`}
            aria-controls={`${ids}-p${id}`}
            aria-selected={value === id}
            className="ss-tabs__tab"
            onClick={() => onChange(id)}
          >
            {text}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${ids}-p${value}`} aria-labelledby={`${ids}-t${value}`}>
        {children}
      </div>
    </>
  );
}
