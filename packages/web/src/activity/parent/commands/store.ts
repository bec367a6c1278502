import { RpcError, RpcErrorCode } from '../protocol.js';
import { entitlement, sku, type ApiEntitlement, type ApiSku } from '../shapes.js';
import { fromApi, isSnowflake, str, type Handler, type Session } from '../session.js';

/** Premium apps in an Activity: the app's SKUs, the person's entitlements, and purchases through the client's store. */

async function storeSkus(s: Session): Promise<ApiSku[]> {
  try {
    return await s.host.api.request<ApiSku[]>('GET', `/store/applications/${s.clientId}/skus`);
  } catch (err) {
    throw fromApi(err);
  }
}

export const getSkus: Handler = async (s) => ({ skus: (await storeSkus(s)).map(sku) });

export const getEntitlements: Handler = async (s) => {
  let list: ApiEntitlement[];
  try {
    list = await s.host.api.request<ApiEntitlement[]>('GET', '/users/@me/entitlements', { query: { application_id: s.clientId, exclude_ended: 'true' } });
  } catch (err) {
    throw fromApi(err);
  }
  const me = s.host.me().id;
  return { entitlements: list.filter((e) => !e.deleted).map((e) => entitlement(e, me)) };
};

/**
 * START_PURCHASE: the person confirms in the client's purchase dialog, the store sells the SKU, and the frame gets
 * ENTITLEMENT_CREATE for each new entitlement before the command resolves with them. Cancelled: null.
 */
export const startPurchase: Handler = async (s, args) => {
  const skuId = str(args, 'sku_id');
  if (!isSnowflake(skuId)) throw new RpcError(RpcErrorCode.INVALID_PAYLOAD, 'Invalid sku_id');
  const target = (await storeSkus(s)).find((x) => x.id === skuId);
  if (!target) throw new RpcError(RpcErrorCode.INVALID_PAYLOAD, 'Unknown SKU for this application');
  if (!(await s.host.ui.confirmPurchase({ id: target.id, name: target.name, price: target.price ?? { amount: 0, currency: 'usd' } }))) return null;
  let result: { entitlements: ApiEntitlement[] };
  try {
    result = await s.host.api.request('POST', `/store/skus/${skuId}/purchase`, { body: {} });
  } catch (err) {
    throw fromApi(err);
  }
  const me = s.host.me().id;
  const created = result.entitlements.map((e) => entitlement(e, me));
  for (const e of created) s.dispatch('ENTITLEMENT_CREATE', { entitlement: e });
  return created;
};
