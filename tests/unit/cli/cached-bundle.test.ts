// The proxy's bundle loaded with V8's code cache: made by a first start, used by the next, made
// again for a rebuilt bundle; the chunks it requires from its folder are loaded (and cached) alike.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../support/index.js';

afterEach(() => removeTempDirs());

const loader = path.resolve(import.meta.dirname, '../../../electron/cli/cached-bundle.ts');

/** One process that loads the bundle, calls it and says whether the cache was used. */
function start(entry: string, cacheDir: string): { answer: string; cache: string } {
  const script = `import(${JSON.stringify(loader)}).then(({ loadCachedBundle }) => { const { exports, cache } = loadCachedBundle(${JSON.stringify(entry)}, ${JSON.stringify(cacheDir)}); console.log(JSON.stringify({ answer: exports.answer(), cache: cache() })); })`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' })) as { answer: string; cache: string };
}

function bundle(dir: string, word: string): string {
  fs.writeFileSync(path.join(dir, 'chunk-abc.cjs'), `exports.word = ${JSON.stringify(word)};`);
  const entry = path.join(dir, 'entry.cjs');
  fs.writeFileSync(entry, `const chunk = require('./chunk-abc.cjs'); const p = require('node:path'); exports.answer = () => chunk.word + ':' + p.basename(__filename);`);
  return entry;
}

describe('the bundle with its code cache', () => {
  it('is made by a first start, used by the next, and made anew when the bundle is rebuilt', () => {
    const dir = tempDir('bundle-');
    const cacheDir = path.join(tempDir('data-'), 'cache');
    const entry = bundle(dir, 'one');
    expect(start(entry, cacheDir)).toEqual({ answer: 'one:entry.cjs', cache: 'made' });
    expect(fs.readdirSync(cacheDir).filter((name) => name.endsWith('.v8'))).toHaveLength(2);
    expect(start(entry, cacheDir)).toEqual({ answer: 'one:entry.cjs', cache: 'used' });
    // A rebuild of the chunk: its old cache is another file's, never used for it.
    fs.rmSync(path.join(dir, 'chunk-abc.cjs'));
    bundle(dir, 'two');
    expect(start(entry, cacheDir)).toEqual({ answer: 'two:entry.cjs', cache: 'made' });
    expect(start(entry, cacheDir)).toEqual({ answer: 'two:entry.cjs', cache: 'used' });
  });

  it('runs without a cache where none can be kept', () => {
    const entry = bundle(tempDir('bundle-'), 'three');
    const file = path.join(tempDir('data-'), 'not-a-folder');
    fs.writeFileSync(file, '');
    expect(start(entry, path.join(file, 'cache'))).toEqual({ answer: 'three:entry.cjs', cache: 'made' });
    expect(start(entry, path.join(file, 'cache'))).toEqual({ answer: 'three:entry.cjs', cache: 'made' });
  });
});
