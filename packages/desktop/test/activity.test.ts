import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildActivity } from '../src/rpc/activity.ts';
import { RpcError } from '../src/rpc/codes.ts';

const app = { id: '100', name: 'Space Game' };
const NOW = 1_790_000_000_000;
const refused = (args: unknown, code: number, message: string) =>
  assert.throws(
    () => buildActivity(args, app, NOW),
    (e: unknown) => e instanceof RpcError && e.code === code && e.message === message,
  );
const child = (path: string[], leaf: string) => path.reduceRight((inner, k) => `child "${k}" fails because [${inner}]`, leaf);

describe("SET_ACTIVITY validation (the platform client's rules and wording)", () => {
  it('accepts types 0, 2, 3 and 5 and refuses the others', () => {
    for (const type of [0, 2, 3, 5]) assert.equal(buildActivity({ pid: 1, activity: { type } }, app, NOW)!.presence.type, type);
    for (const type of [1, 4, 6]) refused({ pid: 1, activity: { type } }, 4000, child(['activity', 'type'], '"type" must be one of [0, 2, 3, 5]'));
  });

  it('state and details: 2 to 128 characters; urls must be URIs', () => {
    refused({ activity: { state: 'x' } }, 4000, child(['activity', 'state'], '"state" length must be at least 2 characters long'));
    refused(
      { activity: { details: 'x'.repeat(129) } },
      4000,
      child(['activity', 'details'], '"details" length must be less than or equal to 128 characters long'),
    );
    refused({ activity: { state: '' } }, 4000, child(['activity', 'state'], '"state" is not allowed to be empty'));
    refused({ activity: { state_url: 'not a url' } }, 4000, child(['activity', 'state_url'], '"state_url" must be a valid uri'));
    refused(
      { activity: { details_url: 'https://x.example/' + 'a'.repeat(250) } },
      4000,
      child(['activity', 'details_url'], '"details_url" length must be less than or equal to 256 characters long'),
    );
    assert.equal(buildActivity({ activity: { state: 'ok', state_url: 'https://x.example/s' } }, app, NOW)!.presence.state_url, 'https://x.example/s');
  });

  it('buttons: 1 or 2, label up to 32, url a URI up to 512', () => {
    refused({ activity: { buttons: [] } }, 4000, child(['activity', 'buttons'], '"buttons" must contain at least 1 items'));
    const b = { label: 'Go', url: 'https://x.example' };
    refused({ activity: { buttons: [b, b, b] } }, 4000, child(['activity', 'buttons'], '"buttons" must contain less than or equal to 2 items'));
    refused(
      { activity: { buttons: [{ label: 'L'.repeat(33), url: b.url }] } },
      4000,
      child(
        ['activity', 'buttons'],
        `"buttons" at position 0 fails because [${child(['label'], '"label" length must be less than or equal to 32 characters long')}]`,
      ),
    );
    refused(
      { activity: { buttons: [{ label: 'Go' }] } },
      4000,
      child(['activity', 'buttons'], `"buttons" at position 0 fails because [${child(['url'], '"url" is required')}]`),
    );
  });

  it('timestamps, party, assets, status_display_type', () => {
    refused({ activity: { timestamps: { start: 0 } } }, 4000, child(['activity', 'timestamps', 'start'], '"start" must be larger than or equal to 1'));
    refused({ activity: { party: { size: [1] } } }, 4000, child(['activity', 'party', 'size'], '"size" must contain 2 items'));
    refused({ activity: { party: { id: 'p' } } }, 4000, child(['activity', 'party', 'id'], '"id" length must be at least 2 characters long'));
    refused(
      { activity: { assets: { large_image: 'k'.repeat(301) } } },
      4000,
      child(['activity', 'assets', 'large_image'], '"large_image" length must be less than or equal to 300 characters long'),
    );
    refused({ activity: { assets: { small_url: 'nope' } } }, 4000, child(['activity', 'assets', 'small_url'], '"small_url" must be a valid uri'));
    refused({ activity: { status_display_type: 3 } }, 4000, child(['activity', 'status_display_type'], '"status_display_type" must be one of [0, 1, 2]'));
    refused({ pid: -1 }, 4000, child(['pid'], '"pid" must be larger than or equal to 0'));
    refused({ activity: 'playing' }, 4000, child(['activity'], '"activity" must be an object'));
  });

  it('secrets: unique, never the party id, never with buttons (5005)', () => {
    refused({ activity: { party: { id: 'abc' }, secrets: { join: 'abc' } } }, 5005, 'secrets cannot match the party id');
    refused({ activity: { secrets: { join: 'same', spectate: 'same' } } }, 5005, 'secrets must be unique');
    refused(
      { activity: { secrets: { join: 'j1' }, buttons: [{ label: 'Go', url: 'https://x.example' }] } },
      5005,
      'secrets cannot currently be sent with buttons',
    );
  });

  it('normalises: name and application from the app, seconds to ms, flags, buttons to labels; secrets never in the presence', () => {
    const r = buildActivity(
      {
        pid: 1,
        activity: {
          state: 'In lobby',
          timestamps: { start: 1_790_000_000, end: NOW + 5000 },
          instance: true,
          party: { id: 'party', size: [1, 4], privacy: 1 },
          secrets: { join: 'join-secret' },
          status_display_type: 1,
          extra_field: 'ignored',
        },
      },
      app,
      NOW,
    )!;
    assert.deepEqual(r.presence, {
      name: 'Space Game',
      type: 0,
      application_id: '100',
      created_at: NOW,
      platform: 'desktop',
      state: 'In lobby',
      status_display_type: 1,
      timestamps: { start: 1_790_000_000_000, end: NOW + 5000 },
      party: { id: 'party', size: [1, 4] },
      flags: 1 | 2 | 64 | 128,
    });
    assert.deepEqual(r.echo.secrets, { join: 'join-secret' });
    assert.equal(buildActivity({ pid: 1, activity: { name: 'Custom name' } }, app, NOW)!.presence.name, 'Custom name');
  });

  it('no activity, or null, is a clear', () => {
    assert.equal(buildActivity({ pid: 1 }, app, NOW), null);
    assert.equal(buildActivity({ pid: 1, activity: null }, app, NOW), null);
    assert.equal(buildActivity(undefined, app, NOW), null);
  });
});
