import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { TerminalPrompter, type ConsentRequest } from '../src/consent.ts';

const request: ConsentRequest = {
  application: { id: '42', name: 'Space Game', icon: null },
  scopes: ['rpc', 'identify'],
  user: { id: '7', username: 'alice', global_name: 'Alice' },
  transport: 'ipc',
};

/** Asks once on a fake terminal and types `typed` when the question is shown. */
async function answer(typed: string): Promise<{ granted: boolean; shown: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (c: Buffer) => {
    shown += c.toString();
    if (shown.endsWith('[y/N] ')) input.write(typed);
  });
  const granted = await new TerminalPrompter(input, output).ask(request);
  return { granted, shown };
}

describe('TerminalPrompter', () => {
  it('shows the app, the scopes and the account, and takes y or yes as consent', async () => {
    const yes = await answer('y\n');
    assert.equal(yes.granted, true);
    assert.match(yes.shown, /"Space Game" \(application 42\) asks to connect to your Accord account Alice \(@alice\)/);
    assert.match(yes.shown, /It would be allowed: rpc, identify/);
    assert.equal((await answer('YES\n')).granted, true);
  });

  it('anything else, or an empty answer, is a refusal', async () => {
    for (const typed of ['n\n', '\n', 'sure\n']) assert.equal((await answer(typed)).granted, false, JSON.stringify(typed));
  });
});
