import { useEffect, useId, useState, type FormEvent } from 'react';
import { readableError } from '../../lib/api/errors.js';
import { useAction } from '../../lib/use-action.js';
import { Banner, Button, Empty, ErrorState, Loading, TextField, toast } from '../../lib/ui/index.js';
import { useOpenApp } from '../context.js';
import type { Entitlement, Sku } from '../types.js';
import { Checkbox } from '../ui/Checkbox.js';
import { PageHead, Section } from '../ui/Section.js';

const SKU_TYPES: Record<number, string> = { 2: 'Durable', 3: 'Consumable', 5: 'Subscription', 6: 'Subscription group' };
const ENTITLEMENT_TYPES: Record<number, string> = {
  1: 'Purchase',
  2: 'Premium subscription',
  3: 'Developer gift',
  4: 'Test',
  5: 'Free purchase',
  6: 'Gift',
  7: 'Premium purchase',
  8: 'Subscription',
  10: 'Quest reward',
};
const AVAILABLE = 1 << 2;
const money = (p?: { amount: number; currency: string }) =>
  p ? new Intl.NumberFormat(undefined, { style: 'currency', currency: p.currency.toUpperCase() }).format(p.amount / 100) : '—';

/** SKUs (what the app sells) and test entitlements (grant one to yourself or a server to try premium features). */
export function MonetizationPage() {
  const { app, api } = useOpenApp();
  const [skus, setSkus] = useState<Sku[] | null>(null);
  const [prices, setPrices] = useState<Map<string, Sku['price']>>(new Map());
  const [error, setError] = useState<unknown>(null);
  const load = () => {
    setError(null);
    api.skus(app.id).then(setSkus).catch(setError);
  };
  useEffect(load, [app.id]);
  const remember = (s: Sku) => {
    if (s.price) setPrices((m) => new Map(m).set(s.id, s.price));
  };
  const publish = async (s: Sku, on: boolean) => {
    try {
      const next = await api.updateSku(app.id, s.id, { published: on });
      remember(next);
      setSkus((list) => (list ?? []).map((x) => (x.id === s.id ? { ...x, flags: next.flags } : x)));
    } catch (err) {
      toast(readableError(err), true);
    }
  };
  const own = (skus ?? []).filter((s) => s.type !== 6);

  return (
    <>
      <PageHead title="Monetization">Sell premium features: durable and consumable items, and subscriptions. Test them without paying.</PageHead>
      <Section title="SKUs" description="Published SKUs appear in your app's store and can be bought; drafts cannot.">
        {error ? (
          <ErrorState title="Could not load SKUs" message={readableError(error)} onRetry={load} />
        ) : !skus ? (
          <Loading label="Loading SKUs…" />
        ) : !own.length ? (
          <div className="p-empty p-empty--small">
            <Empty icon="store" title="No SKUs yet">
              Create your first one below.
            </Empty>
          </div>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="SKUs">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Type</th>
                  <th>Price</th>
                  <th>Status</th>
                  <th>ID</th>
                </tr>
              </thead>
              <tbody>
                {own.map((s) => {
                  const published = (s.flags & AVAILABLE) !== 0;
                  return (
                    <tr key={s.id}>
                      <td>
                        <strong>{s.name}</strong>
                        <div className="muted">{s.slug}</div>
                      </td>
                      <td>{SKU_TYPES[s.type] ?? s.type}</td>
                      <td>{money(s.price ?? prices.get(s.id))}</td>
                      <td>
                        <span className={published ? 'pill pill--ok' : 'pill'}>{published ? 'Published' : 'Draft'}</span>{' '}
                        <Button variant="link" size="sm" onClick={() => void publish(s, !published)}>
                          {published ? 'Unpublish' : 'Publish'}
                        </Button>
                      </td>
                      <td className="muted">{s.id}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <NewSku
          onCreated={(s) => {
            remember(s);
            setSkus((list) => [...(list ?? []), s]);
          }}
        />
      </Section>
      <TestEntitlements skus={own} />
    </>
  );
}

function NewSku({ onCreated }: { onCreated: (s: Sku) => void }) {
  const { app, api } = useOpenApp();
  const typeId = useId();
  const [name, setName] = useState('');
  const [type, setType] = useState(5);
  const [price, setPrice] = useState('4.99');
  const [published, setPublished] = useState(true);
  const create = useAction(async () => {
    const amount = Math.round(Number(price) * 100);
    onCreated(await api.createSku(app.id, { name: name.trim(), type, price: Number.isFinite(amount) ? amount : 0, currency: 'usd', published }));
    setName('');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New SKU">
      <div className="inline-form__title">New SKU</div>
      {create.error ? <Banner>{readableError(create.error)}</Banner> : null}
      <div className="inline-form__row">
        <TextField label="Name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="Premium" />
        <div className="field">
          <label className="field__label" htmlFor={typeId}>
            Type
          </label>
          <select id={typeId} className="input" value={type} onChange={(e) => setType(Number(e.target.value))}>
            <option value={5}>Subscription</option>
            <option value={2}>Durable</option>
            <option value={3}>Consumable</option>
          </select>
        </div>
        <TextField label="Price (USD)" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
      </div>
      <div className="p-row">
        <Checkbox label="Publish now" checked={published} onChange={setPublished} />
        <span className="grow" />
        <Button type="submit" busy={create.busy} disabled={!name.trim()}>
          Create SKU
        </Button>
      </div>
    </form>
  );
}

function TestEntitlements({ skus }: { skus: Sku[] }) {
  const { app, api, me } = useOpenApp();
  const skuId = useId();
  const ownerTypeId = useId();
  const [list, setList] = useState<Entitlement[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [sku, setSku] = useState('');
  const [ownerType, setOwnerType] = useState<1 | 2>(2);
  const [owner, setOwner] = useState('');
  const load = () => {
    setError(null);
    api.entitlements(app.id).then(setList).catch(setError);
  };
  useEffect(load, [app.id]);
  useEffect(() => {
    if (!owner && me && ownerType === 2) setOwner(me.id);
  }, [me]);
  const chosen = sku || skus[0]?.id || '';
  const create = useAction(async () => {
    await api.createTestEntitlement(app.id, { sku_id: chosen, owner_id: owner.trim(), owner_type: ownerType });
    setList(await api.entitlements(app.id)); // the full objects (the create answer is partial)
  });
  const remove = async (e: Entitlement) => {
    try {
      await api.deleteTestEntitlement(app.id, e.id);
      setList((l) => (l ?? []).filter((x) => x.id !== e.id));
    } catch (err) {
      toast(readableError(err), true);
    }
  };
  const skuName = (id: string) => skus.find((s) => s.id === id)?.name ?? id;

  return (
    <Section
      title="Test entitlements"
      description="Grant a SKU to a person or a server without a purchase, to try your premium features. Your bot receives ENTITLEMENT_CREATE."
    >
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void create.run();
        }}
        aria-label="New test entitlement"
      >
        {create.error ? <Banner>{readableError(create.error)}</Banner> : null}
        <div className="inline-form__row">
          <div className="field">
            <label className="field__label" htmlFor={skuId}>
              SKU
            </label>
            <select id={skuId} className="input" value={chosen} onChange={(e) => setSku(e.target.value)} disabled={!skus.length}>
              {skus.length ? (
                skus.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))
              ) : (
                <option value="">Create a SKU first</option>
              )}
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={ownerTypeId}>
              Owner
            </label>
            <select id={ownerTypeId} className="input" value={ownerType} onChange={(e) => setOwnerType(Number(e.target.value) as 1 | 2)}>
              <option value={2}>A user</option>
              <option value={1}>A server</option>
            </select>
          </div>
          <TextField label={ownerType === 2 ? 'User ID' : 'Server ID'} value={owner} onChange={(e) => setOwner(e.target.value)} inputMode="numeric" />
        </div>
        <div className="p-row">
          <span className="grow" />
          <Button type="submit" busy={create.busy} disabled={!chosen || !owner.trim()}>
            Grant
          </Button>
        </div>
      </form>
      {error ? (
        <ErrorState title="Could not load entitlements" message={readableError(error)} onRetry={load} />
      ) : !list ? (
        <Loading label="Loading entitlements…" />
      ) : !list.length ? (
        <div className="p-empty p-empty--small">
          <Empty icon="check" title="No entitlements yet">
            Grants and purchases of your SKUs show up here.
          </Empty>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Entitlements">
            <thead>
              <tr>
                <th>SKU</th>
                <th>Owner</th>
                <th>Type</th>
                <th>Ends</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <tr key={e.id}>
                  <td>
                    <strong>{skuName(e.sku_id)}</strong>
                  </td>
                  <td>
                    {e.user_id ? (
                      <>
                        User <span className="muted">{e.user_id}</span>
                      </>
                    ) : (
                      <>
                        Server <span className="muted">{e.guild_id}</span>
                      </>
                    )}
                  </td>
                  <td>
                    <span className={e.type === 4 ? 'pill' : 'pill pill--ok'}>{ENTITLEMENT_TYPES[e.type] ?? e.type}</span>
                  </td>
                  <td>{e.ends_at ? new Date(e.ends_at).toLocaleDateString() : 'Never'}</td>
                  <td className="table__actions">
                    {e.type === 4 ? (
                      <Button variant="link" size="sm" onClick={() => void remove(e)}>
                        Delete
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
