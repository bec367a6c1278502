/** The platform's own names: a server answering as discord.com (--intercept) advertises the Gateway under its host. */
const PLATFORM_API = 'https://discord.com';
const PLATFORM_GATEWAY = 'wss://gateway.discord.gg';

/** The Gateway's URL for clients (GET /gateway, READY's resume_gateway_url), bare so they can append a query. */
export function gatewayUrl(publicUrl: string): string {
  return publicUrl === PLATFORM_API ? PLATFORM_GATEWAY : publicUrl.replace(/^http/, 'ws');
}
