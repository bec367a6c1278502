import { useId, useState } from 'react';
import { Button, toast } from '../../lib/ui/index.js';

/** Copies text, falling back to a hidden textarea where the clipboard API is not allowed. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/** A read-only value with a Copy button (ids, keys, links). */
export function CopyField({ label, value, mono = true, hint }: { label: string; value: string; mono?: boolean; hint?: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await copyText(value);
    setCopied(true);
    toast(`${label} copied`);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="copy-field">
        <input id={id} className={mono ? 'input input--mono' : 'input'} readOnly value={value} onFocus={(e) => e.target.select()} />
        <Button variant={copied ? 'success' : 'primary'} onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      {hint ? <div className="field__hint">{hint}</div> : null}
    </div>
  );
}
