import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

export const PHONE = { width: 390, height: 844 };

/** A fresh browser profile the size of a phone held upright, with touch. */
export async function newPhonePerson(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** Nothing sticks out past the right edge: the page cannot be scrolled sideways. */
export async function assertNoSidewaysScroll(page: Page, screen: string): Promise<void> {
  // In the page (the tests' TypeScript has no DOM types): the scroll width, and what sticks out, for the message.
  const { scroll, wide } = await page.evaluate<{ scroll: number; wide: string[] }>(`(() => {
    const vw = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > vw + 1 && el.checkVisibility({ visibilityProperty: true }))
      .slice(0, 5)
      .map((el) => el.tagName.toLowerCase() + '.' + el.className);
    return { scroll: document.scrollingElement.scrollWidth, wide };
  })()`);
  assert.ok(scroll <= PHONE.width, `${screen}: the page is ${scroll} px wide (${wide.join(', ')})`);
}

/** The element lies across the screen's width, neither edge past the screen's. */
export async function assertWithinScreen(element: Locator, what: string): Promise<void> {
  const box = await element.boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, `${what} within the screen: ${JSON.stringify(box)}`);
}
