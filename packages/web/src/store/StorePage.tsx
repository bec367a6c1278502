import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { readableError } from '../lib/api/errors.js';
import type { Entitlement, StoreSku, Subscription } from '../lib/api/types.js';
import { useApi } from '../lib/session.js';
import { Banner, Button, Empty, ErrorState, Icon, Loading } from '../lib/ui/index.js';
import { price } from './skus.js';
import { PurchaseDialog } from './PurchaseDialog.js';
import { loadSkus, skuKind } from './skus.js';

/** Subscription statuses (discord-api-types SubscriptionStatus): 0 active, 1 inactive, 2 ending at the period end. */
const SUB_ACTIVE = 0;
const SUB_ENDING = 2;

/**
 * /application-directory/{id}/store: an app's SKUs with what the person owns, Buy for the others, and Cancel
 * (or Resume) for an active subscription.
 */
export default function StorePage() {
  const { appId = '' } = useParams();
  const api = useApi();
  const [skus, setSkus] = useState<StoreSku[] | null>(null);
  const [owned, setOwned] = useState<Entitlement[]>([]);
  const [subs, setSubs] = useState<Subscription[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [buying, setBuying] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [appName, setAppName] = useState<string | null>(null);
  useEffect(() => {
    api.applications.publicInfo(appId).then(
      (a) => setAppName(a.name),
      () => undefined,
    );
  }, [appId]);

  const reload = useCallback(async () => {
    try {
      const [list, ents, mine] = await Promise.all([loadSkus(api, appId, true), api.store.entitlements(appId), api.store.subscriptions(appId)]);
      setSkus(list);
      setOwned(ents);
      setSubs(mine);
    } catch (err) {
      setError(err);
    }
  }, [appId]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const cancel = async (s: Subscription, resume = false) => {
    setActionError(null);
    try {
      await (resume ? api.store.resume(s.id) : api.store.cancel(s.id));
      await reload();
    } catch (err) {
      setActionError(err);
    }
  };

  let body;
  if (error)
    body = (
      <ErrorState
        message={readableError(error)}
        onRetry={() => {
          setError(null);
          void reload();
        }}
      />
    );
  else if (!skus) body = <Loading label="Loading the store…" />;
  else if (!skus.length)
    body = (
      <Empty icon="store" title="Nothing for sale">
        This app has no published products yet.
      </Empty>
    );
  else {
    body = (
      <ul className="store__list">
        {skus.map((s) => {
          const sub = subs.find((x) => x.sku_ids.includes(s.id) && (x.status === SUB_ACTIVE || x.status === SUB_ENDING));
          const has = owned.some((e) => e.sku_id === s.id && !e.deleted && !(e.consumed && s.type === 3));
          return (
            <li key={s.id} className="store__item" data-sku={s.id}>
              <div className="store__icon">
                <Icon name={s.type === 5 ? 'check' : 'store'} size={22} />
              </div>
              <div className="grow">
                <div className="store__name">{s.name}</div>
                <div className="muted">
                  {skuKind(s.type)} · {price(s.price)}
                  {s.type === 5 ? ' / month' : ''}
                </div>
                {sub ? (
                  <div className={sub.status === SUB_ACTIVE ? 'store__sub' : 'store__sub store__sub--ending'}>
                    {sub.status === SUB_ACTIVE
                      ? `Renews ${new Date(sub.current_period_end).toLocaleDateString()}`
                      : `Cancelled: ends ${new Date(sub.current_period_end).toLocaleDateString()}`}
                  </div>
                ) : null}
              </div>
              {sub ? (
                sub.status === SUB_ACTIVE ? (
                  <Button variant="secondary" onClick={() => void cancel(sub)}>
                    Cancel subscription
                  </Button>
                ) : (
                  <Button variant="secondary" onClick={() => void cancel(sub, true)}>
                    Resume
                  </Button>
                )
              ) : has ? (
                <span className="store__owned">
                  <Icon name="check" size={16} /> Owned
                </span>
              ) : (
                <Button variant="success" onClick={() => setBuying(s.id)}>
                  {s.type === 5 ? 'Subscribe' : 'Buy'}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <main className="page">
      <div className="page__inner">
        <Link to="/channels/@me" className="page__back">
          ‹ Back to Accord
        </Link>
        <h1 className="page__title">{appName ? `${appName} — Store` : 'Store'}</h1>
        {actionError ? <Banner>{readableError(actionError)}</Banner> : null}
        {body}
      </div>
      {buying ? <PurchaseDialog applicationId={appId} skuId={buying} onClose={() => setBuying(null)} onBought={() => void reload()} /> : null}
    </main>
  );
}
