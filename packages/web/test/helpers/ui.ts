import type { Page } from 'playwright-core';

/** Registers through the UI and waits for the client to be connected. */
export async function registerInUi(page: Page, baseUrl: string, username: string, displayName: string, path = '/register'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel('Display name').fill(displayName);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('correct-horse-battery');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('navigation', { name: 'Servers' }).waitFor();
}

/** The message box of the open channel. */
export const composer = (page: Page) => page.locator('.composer__input');

/** The rendered message (article) whose own content (not a reply preview) contains `text`; the newest if several. */
export const message = (page: Page, text: string) =>
  page
    .locator('article.msg')
    .filter({ has: page.locator('.msg__body', { hasText: text }) })
    .filter({ hasNot: page.locator('.msg__reply', { hasText: text }) })
    .last();

/** `message`, once the server has it: not the grey local echo shown while it is being sent. */
export const confirmed = (page: Page, text: string) => message(page, text).filter({ hasNot: page.locator('.msg__content--pending') });

export async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
}
