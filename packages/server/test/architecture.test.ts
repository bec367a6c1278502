// engine-independent: reads source files only
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ESM script without type declarations
import { checkRepository } from '../../../scripts/check-architecture.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function write(root: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), text);
  }
}

test('architecture: no import cycles, layers point down, services in documented domains, packages kept apart', () => {
  assert.deepEqual(checkRepository(repo), []);
});

test('architecture check: reports a cycle, an upward import, an undocumented or loose service and a reach into another package', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-arch-'));
  try {
    write(root, {
      'packages/server/package.json': '{}',
      'packages/server/src/core/a.ts': "import { b } from './b.js';\nexport const a = 1;",
      'packages/server/src/core/b.ts': "import type { a } from './a.js';\nexport const b = 2;",
      'packages/server/src/services/guilds/README.md': '# guilds',
      'packages/server/src/services/guilds/x.ts': "import { r } from '../../http/router.js';",
      'packages/server/src/services/loose.ts': 'export {};',
      'packages/server/src/services/messages/y.ts': 'export {};',
      'packages/server/src/services/guilds/q.ts': "export const q = (ctx: any) => ctx.db.selectFrom('guilds').selectAll().execute();",
      'packages/server/src/gateway/k.ts': "import { sql } from 'kysely';\nexport const k = sql`SELECT 1`;",
      'packages/server/src/http/router.ts': 'export const r = 1;',
      'packages/web/package.json': '{}',
      'packages/web/src/app.ts': "import { a } from '../../server/src/core/a.js';",
    });
    const problems: string[] = checkRepository(root);
    assert.ok(
      problems.some((p) => p.startsWith('cycle in packages/server') && p.includes('core/a.ts') && p.includes('core/b.ts')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('services/guilds/x.ts (services) imports ../../http/router.js (http), a higher layer')),
      problems.join('\n'),
    );
    assert.ok(problems.includes('services/loose.ts is not in a domain folder'));
    // Storage only through the repositories: a service with a query handle, a transport importing Kysely.
    assert.ok(
      problems.some((p) => p.startsWith('packages/server/src/services/guilds/q.ts uses a query handle')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('packages/server/src/services/guilds/q.ts builds a query')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('packages/server/src/gateway/k.ts imports kysely')),
      problems.join('\n'),
    );
    assert.ok(problems.includes('services/messages/ has no README.md saying what it owns'));
    assert.ok(
      problems.some((p) => p.startsWith("packages/web/src/app.ts imports another package's file")),
      problems.join('\n'),
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
