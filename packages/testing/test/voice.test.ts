/** People in a voice channel through the toolkit: a tone spoken by one is the tone the other hears, with DAVE on. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dominantFrequency, pcmFromWav, startAccord, toneWav } from '../src/index.ts';

test('alice speaks 440 Hz and bob hears 440 Hz; bob speaks 660 Hz and alice hears 660 Hz', { timeout: 90_000 }, async () => {
  const accord = await startAccord();
  const {
    people: { alice, bob },
    guild,
  } = await accord.world({ guild: { channels: [{ name: 'talk', type: 2 }] } });
  const [a, b] = [await alice.joinVoice(guild.channels.talk), await bob.joinVoice(guild.channels.talk)];
  await b.listen(alice);
  await a.listen(bob);
  await a.speak(toneWav(440, 1000));
  await b.speak(toneWav(660, 1000));
  const heardByBob = pcmFromWav(await b.heard(alice));
  const heardByAlice = pcmFromWav(await a.heard(bob));
  assert.ok(heardByBob.length > 48_000 * 4 * 0.5, `bob heard ${heardByBob.length / 192} ms`);
  assert.equal(dominantFrequency(heardByBob, [220, 440, 660, 880]), 440);
  assert.equal(dominantFrequency(heardByAlice, [220, 440, 660, 880]), 660);
  await a.leave();
  await b.leave();
});
