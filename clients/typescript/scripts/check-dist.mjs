// dist/ is committed (the server carries the SDK's built files for the web client, and
// `cargo build` needs no node): this fails when it is not exactly what `tsc` makes of src/.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = mkdtempSync(join(tmpdir(), 'mahjong-sdk-dist-'));
execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(root, 'tsconfig.json'), '--outDir', out], {
  stdio: 'inherit',
});

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const built = new Map(files(out).map((f) => [relative(out, f), readFileSync(f, 'utf8')]));
const committed = new Map(files(join(root, 'dist')).map((f) => [relative(join(root, 'dist'), f), readFileSync(f, 'utf8')]));
const stale = [...new Set([...built.keys(), ...committed.keys()])].filter((f) => built.get(f) !== committed.get(f));
if (stale.length > 0) {
  console.error(`dist/ is not the build of src/ (${stale.join(', ')}): run \`npm run build\` and commit dist/`);
  process.exit(1);
}
console.log(`dist/ is the build of src/ (${built.size} files)`);
