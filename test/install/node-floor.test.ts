// The Node floor (package.json's engines, Node.js 22.13): bin/checkin.js on an older Node says so in
// one plain line and exits 1 — no TypeError, no stack trace. Run with an older Node found on this
// machine (the system's: /usr/bin/node, or a `node` on PATH), since the tests themselves run on a
// supported one; skipped, saying so, when the machine has none older.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../helpers/cli.js';

const FLOOR = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/** Whether Node `version` (v20.20.2) is older than 22.13. */
const older = (version: string) => {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number) as [number, number];
  return major < 22 || (major === 22 && minor < 13);
};

/** A Node older than the floor on this machine, with its version, or undefined. */
function olderNode(): { path: string; version: string } | undefined {
  const candidates = [...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'node')), '/usr/bin/node', '/usr/local/bin/node'];
  for (const path of new Set(candidates)) {
    if (!existsSync(path)) continue;
    try {
      const version = execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
      if (older(version)) return { path, version };
    } catch {
      // not a Node that runs here
    }
  }
  return undefined;
}

const OLD = olderNode();

describe('the Node floor', () => {
  it('package.json asks for Node.js 22.13 or newer', () => {
    expect(FLOOR).toBe('>=22.13');
  });

  it.skipIf(OLD === undefined)(`on an older Node (${OLD ? `${OLD.version}, ${OLD.path}` : 'none on this machine: skipped'}): one plain line, exit 1`, () => {
    for (const args of [['--version'], ['today'], []]) {
      const r = spawnSync(OLD!.path, [BIN, ...args], { env: cleanEnv(), encoding: 'utf8', timeout: 20_000 });
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`checkin needs Node.js 22.13 or newer (this is ${OLD!.version}); install a newer Node.js (https://nodejs.org) and run it again.\n`);
    }
  });
});
