import type { Page } from 'playwright-core';

/** Opens the client signed in with a token (what logging in leaves in localStorage), at a path. */
export async function signInAs(page: Page, baseUrl: string, token: string, path = '/channels/@me'): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.evaluate(`localStorage.setItem('accord.token', ${JSON.stringify(token)})`);
  await page.goto(`${baseUrl}${path}`);
}
