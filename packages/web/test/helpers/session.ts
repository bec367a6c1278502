import type { Page } from 'playwright-core';

/**
 * Opens the client signed in with a token (what logging in leaves in localStorage), at a path. The token is stored
 * from a small JSON page of the same origin rather than from /login, so a sign-in loads the client once, not twice.
 */
export async function signInAs(page: Page, baseUrl: string, token: string, path = '/channels/@me'): Promise<void> {
  await page.goto(`${baseUrl}/api/v10/gateway`);
  await page.evaluate(`localStorage.setItem('accord.token', ${JSON.stringify(token)})`);
  await page.goto(`${baseUrl}${path}`);
}
