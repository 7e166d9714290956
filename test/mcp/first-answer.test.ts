// A fast first answer: a host gives a server about a second to answer initialize (2025-11-25) or
// server/discover (2026-07-28), and on a loaded machine `checkin mcp` came close. What the first
// answer does not need waits until it is out: the outbox (SQLite, when drafts are kept) is first
// looked at after it, and so are the agents' skill folders (the stale-skill note). Measured by what
// is loaded, not by time: a probe preloaded into the server (NODE_OPTIONS --require) says, at each
// line the server writes on stdout, whether node:sqlite is loaded yet.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, track } from '../helpers/cleanup.js';
import { CLI_WORDS } from '../helpers/cli.js';
import { outboxRows } from '../helpers/outbox.js';
import { useMcpSandbox } from '../helpers/mcp.js';

let env: NodeJS.ProcessEnv;
const { connect } = useMcpSandbox((_s, e) => (env = e));

const PROBE = `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  process.stderr.write('probe: sqlite ' + (process.moduleLoadList.includes('NativeModule sqlite') ? 'loaded' : 'not loaded') + '\\n');
  return write(chunk, ...rest);
};
`;

type Msg = { jsonrpc: string; method: string; id?: string | number; params?: object };

const INITIALIZE: Msg = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' } },
};
const DISCOVER: Msg = {
  jsonrpc: '2.0',
  id: 'probe-1',
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'host', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
};

/** `checkin mcp` with the probe: `first` sent, then `then` once its answer came; the answers (in order) and the probe's words. */
async function conversation(first: Msg, then: readonly Msg[]): Promise<{ answers: Array<Record<string, unknown>>; probe: string[] }> {
  const probe = join(tempDir('checkin-probe-'), 'probe.cjs');
  writeFileSync(probe, PROBE);
  const child = track(
    spawn(CLI_WORDS[0]!, [...CLI_WORDS.slice(1), 'mcp'], { env: { ...env, NODE_OPTIONS: `--require ${probe}` }, stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const answers: Array<Record<string, unknown>> = [];
  const expected = 1 + then.filter((m) => 'id' in m).length;
  let out = '';
  const done = new Promise<void>((resolve, reject) => {
    child.once('exit', () => resolve());
    child.once('error', reject);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      let nl;
      while ((nl = out.indexOf('\n')) !== -1) {
        const msg = JSON.parse(out.slice(0, nl)) as Record<string, unknown>;
        out = out.slice(nl + 1);
        if (!('id' in msg)) continue; // a notification
        answers.push(msg);
        if (answers.length === 1) child.stdin!.write(then.map((m) => `${JSON.stringify(m)}\n`).join(''));
        if (answers.length === expected) child.stdin!.end();
      }
    });
  });
  child.stdin!.write(`${JSON.stringify(first)}\n`);
  await done;
  return { answers, probe: err.split('\n').filter((l) => l.startsWith('probe: ')) };
}

describe('checkin mcp: the first answer first', () => {
  for (const [revision, first, then] of [
    [
      '2025-11-25 initialize',
      INITIALIZE,
      [
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ],
    ],
    ['2026-07-28 server/discover', DISCOVER, [{ ...DISCOVER, id: 'list', method: 'tools/list' }]],
  ] as Array<[string, Msg, Msg[]]>) {
    it(`${revision}: with drafts kept, SQLite is not loaded before the first answer; it is once that is out (the outbox is watched)`, async () => {
      // A kept draft: the outbox's database is there to be read.
      const s = await connect();
      const d = await s.call('draft_checkin', { previous: '- Shipped the index' });
      expect(d.isError).toBeFalsy();
      await s.client.close();
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!)).toHaveLength(1);

      const { answers, probe } = await conversation(first, then);
      expect(answers.map((a) => [a.id, 'result' in a])).toEqual([
        [first.id, true],
        [then.at(-1)!.id, true],
      ]);
      // The first line out: SQLite not yet loaded; by the next answer the outbox was looked at.
      expect(probe).toEqual(['probe: sqlite not loaded', 'probe: sqlite loaded']);
    });
  }
});
