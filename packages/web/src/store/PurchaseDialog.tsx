import { useEffect, useState } from 'react';
import { readableError } from '../lib/api/errors.js';
import type { PurchaseResult, StoreSku } from '../lib/api/types.js';
import { useApi } from '../lib/session.js';
import { Banner, Button, Dialog, Icon, Loading } from '../lib/ui/index.js';
import { useAction } from '../lib/use-action.js';
import { loadSkus, price, skuKind } from './skus.js';

/** The checkout for one SKU: what it is, what it costs, and Purchase (`POST /store/skus/{id}/purchase`). */
export function PurchaseDialog({
  applicationId,
  skuId,
  onClose,
  onBought,
}: {
  applicationId: string;
  skuId: string;
  onClose: () => void;
  onBought?: (r: PurchaseResult) => void;
}) {
  const api = useApi();
  const [sku, setSku] = useState<StoreSku | null | undefined>(undefined);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [done, setDone] = useState<PurchaseResult | null>(null);
  useEffect(() => {
    loadSkus(api, applicationId, true).then((list) => setSku(list.find((s) => s.id === skuId) ?? null), setLoadError);
  }, [applicationId, skuId]);
  const buy = useAction(async () => {
    const r = await api.store.purchase(skuId);
    setDone(r);
    onBought?.(r);
  });

  let body;
  if (loadError) body = <Banner>{readableError(loadError)}</Banner>;
  else if (sku === undefined) body = <Loading label="Loading the store…" />;
  else if (sku === null) body = <Banner>This item is not for sale.</Banner>;
  else if (done) {
    body = (
      <div className="purchase purchase--done" role="status">
        <div className="purchase__icon purchase__icon--ok">
          <Icon name="check" size={28} />
        </div>
        <div className="purchase__name">Thanks for your purchase!</div>
        <p className="muted">
          {sku.type === 5
            ? `Your ${sku.name} subscription is active${done.subscription ? ` until ${new Date(done.subscription.current_period_end).toLocaleDateString()}` : ''}.`
            : `${sku.name} is yours.`}
        </p>
      </div>
    );
  } else {
    const discounted = sku.discount_percent ? Math.round((sku.price.amount * (100 - sku.discount_percent)) / 100) : sku.price.amount;
    body = (
      <div className="purchase">
        <div className="purchase__icon">
          <Icon name="store" size={28} />
        </div>
        <div className="purchase__name">{sku.name}</div>
        <div className="muted">{skuKind(sku.type)}</div>
        <div className="purchase__price">
          {sku.discount_percent ? <s className="muted">{price(sku.price)}</s> : null} {price({ ...sku.price, amount: discounted })}
          {sku.type === 5 ? <span className="muted"> / month</span> : null}
        </div>
        {buy.error ? <Banner>{readableError(buy.error)}</Banner> : null}
        <p className="purchase__fine muted">
          Accord is a local platform: no real payment is taken.{sku.type === 5 ? ' The subscription renews monthly until you cancel it.' : ''}
        </p>
      </div>
    );
  }
  return (
    <Dialog
      title={done ? 'Purchase complete' : 'Complete your purchase'}
      onClose={onClose}
      footer={
        done || !sku ? (
          <Button onClick={onClose}>{done ? 'Done' : 'Close'}</Button>
        ) : (
          <>
            <Button variant="link" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="success" busy={buy.busy} onClick={() => void buy.run()}>
              {sku.type === 5 ? 'Subscribe' : 'Purchase'}
            </Button>
          </>
        )
      }
    >
      {body}
    </Dialog>
  );
}
