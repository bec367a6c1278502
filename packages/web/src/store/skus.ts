import { useEffect, useState } from 'react';
import type { Api } from '../lib/api/routes.js';
import type { StoreSku } from '../lib/api/types.js';
import { useApi } from '../lib/session.js';

/** An app's store listing (`GET /store/applications/{id}/skus`), fetched once per app and page load. */
const cache = new Map<string, Promise<StoreSku[]>>();

export function loadSkus(api: Api, appId: string, fresh = false): Promise<StoreSku[]> {
  let p = cache.get(appId);
  if (!p || fresh) {
    p = api.store.skus(appId).catch((err) => {
      cache.delete(appId);
      throw err;
    });
    cache.set(appId, p);
  }
  return p;
}

export function useSku(appId: string | null, skuId: string | undefined): StoreSku | null {
  const api = useApi();
  const [sku, setSku] = useState<StoreSku | null>(null);
  useEffect(() => {
    if (!appId || !skuId) return;
    let live = true;
    loadSkus(api, appId).then(
      (list) => live && setSku(list.find((s) => s.id === skuId) ?? null),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [appId, skuId]);
  return sku;
}

/** SKU types: 2 durable, 3 consumable, 5 subscription, 6 subscription group. */
export const skuKind = (type: number) => (type === 5 ? 'Subscription' : type === 3 ? 'Consumable' : 'One-time purchase');

export function price(p: { amount: number; currency: string }): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: p.currency.toUpperCase() }).format(p.amount / 100);
  } catch {
    return `${(p.amount / 100).toFixed(2)} ${p.currency}`;
  }
}
