import { startAccord } from '../src/index.ts';

/** accord-dev: Accord in dev mode until stopped, with what a developer needs printed. */
const argv = process.argv.slice(2);
const withWorld = argv.includes('--world');
const accord = await startAccord({
  autoClose: false,
  args: argv.filter((a) => a !== '--world'),
  dataDir: argv.includes('--data') ? argv[argv.indexOf('--data') + 1] : undefined,
});
console.log(`accord-dev: API        ${accord.api}`);
console.log(`accord-dev: Gateway    ${accord.gatewayUrl}`);
console.log(`accord-dev: web client ${accord.url}/app   developer portal ${accord.url}/developers/applications`);
console.log(`accord-dev: dev token  ${accord.dev.token}  (X-Accord-Dev-Token for /__dev/…)`);
if (withWorld) {
  const w = await accord.world({ apps: { bot: {} } });
  console.log(`accord-dev: guild ${w.guild.id}, #general ${w.guild.channels.general}`);
  console.log(`accord-dev: app ${w.apps.bot.id}, bot token ${w.apps.bot.token}`);
  for (const [name, p] of Object.entries(w.people)) console.log(`accord-dev: ${name.padEnd(5)} ${p.id}  token ${p.token}`);
  for (const p of Object.values(w.people)) p.gateway.close();
}
console.log('accord-dev: Ctrl-C stops it');
const stop = async () => {
  await accord.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
