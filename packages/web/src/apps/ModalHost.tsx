import { useMemo, useState, type FormEvent } from 'react';
import { readableError } from '../lib/api/errors.js';
import { Markdown } from '../lib/markdown/Markdown.js';
import { useSession, useStore } from '../lib/session.js';
import { Banner, Button, Dialog } from '../lib/ui/index.js';
import { useAction } from '../lib/use-action.js';
import { submitModal } from './invoke.js';
import { ModalField, initialValue, type FieldValue } from './ModalField.js';

/**
 * The modal an app opened (INTERACTION_MODAL_CREATE): every component of the spec (Label around Text Input,
 * selects, Radio Group, Checkbox Group, Checkbox, File Upload; Text Display; legacy action rows of text inputs).
 * Submit sends a MODAL_SUBMIT interaction; the answer arrives like any other.
 */
export function ModalHost() {
  const modal = useStore((s) => s.modal);
  if (!modal) return null;
  return <OpenModal key={modal.id} />;
}

/** Interactive leaves of the modal, wherever they sit (labels, rows). */
function leaves(components: any[]): any[] {
  const out: any[] = [];
  for (const c of components) {
    if (c.type === 18 && c.component) out.push(c.component);
    else if (c.type === 1) out.push(...(c.components ?? []));
    else if (c.custom_id) out.push(c);
  }
  return out;
}

function OpenModal() {
  const { api, store } = useSession();
  const modal = useStore((s) => s.modal)!;
  const channel = useStore((s) => {
    for (const g of s.guilds.values()) {
      const c = g.channels.get(modal.channelId);
      if (c) return c;
    }
    return s.privateChannels.get(modal.channelId);
  });
  const inputs = useMemo(() => leaves(modal.components), [modal]);
  const [values, setValues] = useState<Record<string, FieldValue>>(() => Object.fromEntries(inputs.map((c) => [c.custom_id, initialValue(c)])));
  const close = () => store.set({ modal: null });
  const { busy, error, run } = useAction(async () => {
    if (!channel) throw new Error('The channel of this modal is gone.');
    const files: File[] = [];
    const submitted = (c: any): any => {
      const v = values[c.custom_id];
      if (c.type === 19) {
        const ids = ((v as File[]) ?? []).map((f) => String(files.push(f) - 1));
        return { type: 19, custom_id: c.custom_id, values: ids };
      }
      if (c.type === 4 || c.type === 21 || c.type === 23) return { type: c.type, custom_id: c.custom_id, value: v };
      return { type: c.type, custom_id: c.custom_id, values: v };
    };
    const components = modal.components
      .map((c: any) => {
        if (c.type === 18) return { type: 18, component: submitted(c.component) };
        if (c.type === 1) return { type: 1, components: (c.components ?? []).map(submitted) };
        return { type: c.type };
      })
      .filter((c: any) => c.type !== 10);
    await submitModal(api, store, channel, modal, components, files);
    close();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };
  return (
    <Dialog
      title={modal.title}
      label={modal.title}
      onClose={close}
      footer={
        <>
          <Button variant="link" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form="app-modal" busy={busy}>
            Submit
          </Button>
        </>
      }
    >
      <form id="app-modal" onSubmit={submit} className="amodal">
        {error ? (
          <div style={{ marginBottom: 12 }}>
            <Banner>{readableError(error)}</Banner>
          </div>
        ) : null}
        {modal.components.map((c: any, i: number) => {
          if (c.type === 10) return <Markdown key={i} className="amodal__text" text={c.content ?? ''} />;
          if (c.type === 18)
            return (
              <ModalField
                key={c.component?.custom_id ?? i}
                label={c.label}
                description={c.description}
                component={c.component}
                channel={channel}
                value={values[c.component?.custom_id]}
                onChange={(v) => setValues((s) => ({ ...s, [c.component.custom_id]: v }))}
              />
            );
          if (c.type === 1)
            return (c.components ?? []).map((t: any) => (
              <ModalField
                key={t.custom_id}
                label={t.label ?? t.custom_id}
                component={t}
                channel={channel}
                value={values[t.custom_id]}
                onChange={(v) => setValues((s) => ({ ...s, [t.custom_id]: v }))}
              />
            ));
          return null;
        })}
      </form>
    </Dialog>
  );
}
