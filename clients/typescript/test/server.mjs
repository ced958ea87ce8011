// Runs the real server for the tests: `mahjong serve` on a fresh SQLite file in a temporary
// folder, on a free port. The binary is MAHJONG_BIN, else the workspace's debug build.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The `mahjong` binary. */
export function binary() {
  const bin = process.env.MAHJONG_BIN ?? join(here, '..', '..', '..', 'target', 'debug', 'mahjong');
  if (!existsSync(bin)) {
    throw new Error(`no server binary at ${bin}: run \`cargo build -p mahjong-cli\` or set MAHJONG_BIN`);
  }
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server with `args(dir)` added to its command line (`dir` is its temporary folder);
 * resolves once `/healthz` answers. Returns `{base, dir, stop}`.
 */
export async function startServer(args = () => []) {
  // In memory where the machine has it: the store syncs every commit to its disk, and these
  // tests measure no disk.
  const parent = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const dir = mkdtempSync(join(parent, 'mahjong-sdk-'));
  const port = await freePort();
  const env = { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'warn' };
  delete env.DATABASE_URL;
  delete env.MAHJONG_NATS_URL;
  const child = spawn(
    binary(),
    ['serve', '--port', String(port), '--data-dir', dir, '--http-rate', '1000000', ...args(dir)],
    { env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) break;
    } catch {}
    if (child.exitCode !== null || i > 600) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start (exit ${child.exitCode})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    base,
    dir,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
    /** Removes the server's folder (its database and transcripts). */
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
