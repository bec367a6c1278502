import { Twemoji } from '../../lib/emoji/Emoji.js';
import { useState } from 'react';
import { readableError } from '../../lib/api/errors.js';
import type { Channel, Message } from '../../lib/api/types.js';
import { useSession, useStore } from '../../lib/session.js';
import { confirmInPage, Icon, Spinner, toast } from '../../lib/ui/index.js';
import { PurchaseDialog } from '../../store/PurchaseDialog.js';
import { price, useSku } from '../../store/skus.js';
import { clickComponent } from '../invoke.js';

const STYLE: Record<number, string> = { 1: 'primary', 2: 'secondary', 3: 'success', 4: 'danger', 5: 'secondary', 6: 'premium' };

/** A message button: interaction styles click through POST /interactions; link buttons open; premium buttons buy. */
export function ComponentButton({ button: b, message, channel }: { button: any; message: Message; channel: Channel }) {
  const { api, store } = useSession();
  const [buying, setBuying] = useState(false);
  const appId = message.application_id ?? message.author.id;
  const pending = useStore((s) => {
    for (const p of s.interactions.values())
      if (p.messageId === message.id && p.customId === b.custom_id && (p.state === 'sending' || p.state === 'created')) return true;
    return false;
  });
  const sku = useSku(b.style === 6 ? appId : null, b.sku_id);
  const cls = `btn btn--sm cbtn ${STYLE[b.style] && STYLE[b.style] !== 'primary' ? `btn--${STYLE[b.style]}` : ''}`;
  const emoji = b.emoji ? (
    b.emoji.id ? (
      <img className="emoji" src={`/emojis/${b.emoji.id}.webp?size=32`} alt={b.emoji.name ?? ''} />
    ) : (
      <Twemoji emoji={b.emoji.name ?? ''} />
    )
  ) : null;

  if (b.style === 5) {
    const safe = /^https?:\/\//i.test(b.url ?? '') ? b.url : undefined;
    return (
      <a
        className={cls}
        href={safe}
        target="_blank"
        rel="noreferrer noopener"
        aria-disabled={b.disabled || !safe || undefined}
        onClick={(e) => {
          // Always ask first (an in-page question, not the browser's), then open the link only on "Visit Site".
          e.preventDefault();
          if (b.disabled || !safe) return;
          void confirmInPage({
            title: 'Leaving Accord',
            body: (
              <>
                This link is taking you to the following website: <strong className="confirm__url">{safe}</strong>
              </>
            ),
            confirmLabel: 'Visit Site',
          }).then((yes) => yes && window.open(safe, '_blank', 'noopener,noreferrer'));
        }}
      >
        {emoji}
        {b.label}
        <Icon name="external" size={14} />
      </a>
    );
  }
  if (b.style === 6) {
    return (
      <>
        <button type="button" className={cls} disabled={b.disabled} onClick={() => setBuying(true)}>
          <Icon name="store" size={16} />
          {sku ? `${sku.name} · ${price(sku.price)}` : 'Buy'}
        </button>
        {buying ? <PurchaseDialog applicationId={appId} skuId={b.sku_id} onClose={() => setBuying(false)} /> : null}
      </>
    );
  }
  const click = () => clickComponent(api, store, channel, message, { custom_id: b.custom_id, type: 2 }).catch((err) => toast(readableError(err), true));
  return (
    <button type="button" className={cls} disabled={b.disabled || pending} onClick={click} aria-busy={pending || undefined}>
      {pending ? (
        <Spinner small />
      ) : (
        <>
          {emoji}
          {b.label}
        </>
      )}
    </button>
  );
}
