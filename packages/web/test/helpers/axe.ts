import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeProblem {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe-core in the page (WCAG 2 A and AA rules) and returns its serious and critical violations. */
export async function seriousA11yProblems(page: Page): Promise<AxeProblem[]> {
  // Evaluated over the DevTools protocol: the client's Content-Security-Policy (rightly) refuses an injected <script>.
  // Colours are read as painted: a dialog still fading in would show contrast it does not have once shown.
  const settled = () => (globalThis as any).document.getAnimations().every((a: { playState: string }) => a.playState !== 'running');
  await page.waitForFunction(settled, undefined, { timeout: 10_000 });
  await page.evaluate(`${axeSource}\n;true`);
  return page.evaluate<AxeProblem[]>(`(async () => {
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 6).map((n) => n.target.join(' ')) }));
  })()`);
}
