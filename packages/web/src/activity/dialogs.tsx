import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Dialog, Icon, toast } from '../lib/ui/index.js';
import type { HostUi } from './parent/host.js';
import { AppIcon } from './AppIcon.js';

/**
 * The client's own dialogs for what an Activity asks the person: OAuth2 consent, leaving for an external link,
 * sharing a link or a moment, an invite, a purchase, an image to upload. `useActivityDialogs` gives the HostUi the
 * parent calls (each call resolves when the person answers) and the element that shows the open dialog.
 */

export interface DialogApp {
  id: string;
  name: string;
  icon: string | null;
}

type Open = { node: (close: () => void) => ReactNode; cancel: () => void } | null;

const SCOPE_TEXT: Record<string, string> = {
  identify: 'Access your username, avatar, and banner',
  email: 'Access your email address',
  guilds: "Know what servers you're in",
  'guilds.members.read': 'Read your member info (nickname, avatar, roles) in servers you belong to',
  'rpc.activities.write': 'Update your activity',
  'rpc.voice.read': 'Know who is speaking in your voice channel',
  'relationships.read': 'Know who your friends are',
  'dm_channels.read': 'See your direct message channels',
  'applications.commands': 'Use application commands',
};

const price = (p: { amount: number; currency: string }) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: p.currency.toUpperCase() }).format(p.amount / 100);

export function useActivityDialogs(app: DialogApp, channelLabel: string): { ui: HostUi; element: ReactNode } {
  const [open, setOpen] = useState<Open>(null);
  const current = useRef<Open>(null);

  const ui = useMemo<HostUi>(() => {
    /** Shows one dialog; a second request cancels the first (an Activity asks one thing at a time). */
    function ask<T>(cancelled: T, render: (answer: (v: T) => void) => ReactNode): Promise<T> {
      current.current?.cancel();
      return new Promise<T>((resolve) => {
        let done = false;
        const answer = (v: T) => {
          if (done) return;
          done = true;
          current.current = null;
          setOpen(null);
          resolve(v);
        };
        const entry: Open = { node: () => render(answer), cancel: () => answer(cancelled) };
        current.current = entry;
        setOpen(entry);
      });
    }

    return {
      authorize: ({ application, scopes }) =>
        ask(false, (answer) => (
          <Dialog
            title={`${application.name}`}
            subtitle="wants to access your account"
            onClose={() => answer(false)}
            label="Authorize the Activity"
            footer={
              <>
                <Button variant="link" onClick={() => answer(false)}>
                  Cancel
                </Button>
                <Button onClick={() => answer(true)}>Authorize</Button>
              </>
            }
          >
            <div className="act-consent">
              <AppIcon app={{ id: application.id, name: application.name, icon: application.icon ?? null }} size={64} />
              <div className="act-consent__label">This will allow the developer of {application.name} to:</div>
              <ul className="act-consent__scopes">
                {scopes.map((s) => (
                  <li key={s}>
                    <span className="act-consent__check">
                      <Icon name="check" size={14} />
                    </span>
                    {SCOPE_TEXT[s] ?? s}
                  </li>
                ))}
              </ul>
              <div className="act-consent__fine">The Activity runs inside Accord; you can leave it at any time.</div>
            </div>
          </Dialog>
        )),

      confirmExternalLink: (url) =>
        ask(false, (answer) => (
          <Dialog
            title="Leaving Accord"
            onClose={() => answer(false)}
            footer={
              <>
                <Button variant="link" onClick={() => answer(false)}>
                  Go back
                </Button>
                <Button onClick={() => answer(true)}>Visit site</Button>
              </>
            }
          >
            <p className="act-dialog__text">{app.name} wants to open a link outside Accord:</p>
            <div className="act-dialog__url">{url}</div>
            <p className="act-dialog__hint">Only continue if you trust this site.</p>
          </Dialog>
        )),

      shareLink: ({ message, url }) =>
        ask<'send' | 'copied' | null>(null, (answer) => (
          <Dialog
            title={`Share ${app.name}`}
            subtitle="Invite others straight into the Activity"
            onClose={() => answer(null)}
            label="Share link"
            footer={
              <>
                <Button variant="secondary" onClick={() => copy(url).then((ok) => answer(ok ? 'copied' : null))}>
                  <Icon name="link" size={16} />
                  Copy link
                </Button>
                <Button onClick={() => answer('send')}>Send to {channelLabel}</Button>
              </>
            }
          >
            <div className="act-share">
              <AppIcon app={app} size={40} />
              <div className="grow">
                <div className="act-share__message">{message}</div>
                <div className="act-dialog__url">{url}</div>
              </div>
            </div>
          </Dialog>
        )),

      showInvite: (url) =>
        ask<void>(undefined, (answer) => (
          <Dialog
            title={`Invite friends to ${app.name}`}
            subtitle={`They join ${channelLabel} and can jump into the Activity`}
            onClose={() => answer()}
            footer={
              <Button onClick={() => copy(url).then(() => answer())}>
                <Icon name="link" size={16} />
                Copy invite
              </Button>
            }
          >
            <div className="act-dialog__url">{url}</div>
          </Dialog>
        )),

      confirmPurchase: (sku) =>
        ask(false, (answer) => (
          <Dialog
            title="Confirm your purchase"
            onClose={() => answer(false)}
            label="Confirm purchase"
            footer={
              <>
                <Button variant="link" onClick={() => answer(false)}>
                  Cancel
                </Button>
                <Button variant="success" onClick={() => answer(true)}>
                  Buy for {price(sku.price)}
                </Button>
              </>
            }
          >
            <div className="act-purchase">
              <AppIcon app={app} size={48} />
              <div className="grow">
                <div className="act-purchase__name">{sku.name}</div>
                <div className="act-purchase__by">from {app.name}</div>
              </div>
              <div className="act-purchase__price">{price(sku.price)}</div>
            </div>
          </Dialog>
        )),

      pickImage: () => ask<File | null>(null, (answer) => <ImagePicker app={app} onDone={answer} />),

      shareMoment: (mediaUrl) =>
        ask(false, (answer) => (
          <Dialog
            title="Share a moment"
            subtitle={`From ${app.name}`}
            onClose={() => answer(false)}
            footer={
              <>
                <Button variant="link" onClick={() => answer(false)}>
                  Cancel
                </Button>
                <Button onClick={() => answer(true)}>Send to {channelLabel}</Button>
              </>
            }
          >
            <div className="act-dialog__url">{mediaUrl}</div>
          </Dialog>
        )),
    };
  }, [app, channelLabel]);

  return { ui, element: open ? open.node(() => open.cancel()) : null };
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast('Link copied');
    return true;
  } catch {
    toast('Could not copy the link', true);
    return false;
  }
}

function ImagePicker({ app, onDone }: { app: DialogApp; onDone: (f: File | null) => void }) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <Dialog
      title="Upload an image"
      subtitle={`${app.name} asked for an image`}
      onClose={() => onDone(null)}
      footer={
        <>
          <Button variant="link" onClick={() => onDone(null)}>
            Cancel
          </Button>
          <Button disabled={!file} onClick={() => onDone(file)}>
            Upload
          </Button>
        </>
      }
    >
      <label className="act-upload">
        <Icon name="upload" size={28} />
        <span>{file ? file.name : 'Choose an image'}</span>
        <input type="file" accept="image/*" aria-label="Image file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </label>
    </Dialog>
  );
}
