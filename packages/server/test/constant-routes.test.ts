/**
 * A search of the route table for handlers that answer a constant: no `await`, and no call other than the reply
 * helpers. Each one found must be listed in conformance/partial.ts (reported `partial`, never `pass`), or be one of the
 * few whose answer is configuration by nature (listed here with the reason).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { partialRoutes, routeKey } from '../conformance/run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUTES_DIR = path.join(here, '../src/http/routes');
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
/** Calls that build a reply without reading anything. */
const REPLY_HELPERS = new Set(['noContent', 'created', 'String', 'Number', 'Boolean', 'Reply']);

/** Constant by nature: the answer is the server's configuration, not state a stub could fake. */
const CONFIGURATION: Record<string, string> = {
  'GET /gateway': 'the Gateway URL this server listens on',
  'GET /voice/regions': 'the one voice region this server runs (its own UDP voice server); the platform lists its data centres',
};

interface Found {
  key: string;
  file: string;
  line: number;
}

/** `METHOD /path` of every route handler in the routes folder whose body reads nothing. */
export function constantRoutes(): Found[] {
  const out: Found[] = [];
  for (const file of fs.readdirSync(ROUTES_DIR).filter((f) => f.endsWith('.ts'))) {
    const src = ts.createSourceFile(file, fs.readFileSync(path.join(ROUTES_DIR, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && METHODS.has(node.expression.name.text) && node.arguments.length >= 3) {
        const [p, , handler] = node.arguments;
        if ((ts.isArrowFunction(handler) || ts.isFunctionExpression(handler)) && readsNothing(handler)) {
          const route = ts.isStringLiteralLike(p) ? p.text : p.getText(src);
          out.push({
            key: routeKey(node.expression.name.text, route),
            file,
            line: src.getLineAndCharacterOfPosition(node.expression.name.getStart()).line + 1,
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return out;
}

function readsNothing(fn: ts.ArrowFunction | ts.FunctionExpression): boolean {
  let reads = false;
  const visit = (node: ts.Node) => {
    if (ts.isAwaitExpression(node)) reads = true;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      if (!REPLY_HELPERS.has(name)) reads = true;
    }
    if (!reads) ts.forEachChild(node, visit);
  };
  visit(fn.body);
  return !reads;
}

test('every route that answers a constant is listed as partial (or is configuration by nature)', () => {
  const found = constantRoutes();
  // The search works: it finds the known constant answers.
  assert.ok(
    found.some((f) => f.key === 'GET /voice/regions'),
    JSON.stringify(found),
  );
  const partial = partialRoutes();
  const configuration = new Set(Object.keys(CONFIGURATION).map((k) => routeKey(k.split(' ')[0], k.split(' ')[1])));
  const unlisted = found.filter((f) => !partial.has(f.key) && !configuration.has(f.key)).map((f) => `${f.key} (${f.file}:${f.line})`);
  assert.deepEqual(unlisted, [], 'constant answers not listed in conformance/partial.ts');
});
