// A fast first answer: a host gives a server about a second to answer initialize (2025-11-25) or
// server/discover (2026-07-28), and on a loaded machine `checkin mcp` came close. The first answer is
// written before the CLI and the SDK are loaded (bin/checkin.js requires dist/mcp-first.cjs alone,
// src/mcp/first.ts); the server then reads that request again, its session as it would have been, and
// its own answer is checked equal and not sent twice (src/mcp/stdio.ts). What the first answer does
// not need waits until it is out: the outbox (SQLite, when drafts are kept) is first looked at after
// it, and so are the agents' skill folders (the stale-skill note). Measured by what is loaded, not by
// time: a probe preloaded into the server (NODE_OPTIONS --require) says, at each line the server
// writes on stdout, whether node:sqlite is loaded yet and which of checkin's bundles are (in the
// single executable: which of the bundles it carries it has read). stdout failing while the first
// answer is written is said as the full server says it: one line, exit 1.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { tempDir, track } from '../helpers/cleanup.js';
import { BINARY, CLI_WORDS, outcome } from '../helpers/cli.js';
import { outboxRows } from '../helpers/outbox.js';
import { useMcpSandbox } from '../helpers/mcp.js';
import { firstAnswer } from '../../src/mcp/first.js';
import { LineTransport } from '../../src/mcp/stdio.js';

let env: NodeJS.ProcessEnv;
const { connect } = useMcpSandbox((_s, e) => (env = e));

const PROBE = `const write = process.stdout.write.bind(process.stdout);
const sea = process.getBuiltinModule('node:sea');
const carried = [];
if (sea && sea.isSea()) {
  const get = sea.getAsset;
  sea.getAsset = (name, ...rest) => (carried.push(name), get(name, ...rest));
}
process.stdout.write = (chunk, ...rest) => {
  const bundles = Object.keys(require.cache).filter((p) => /[\\\\/]dist[\\\\/][^\\\\/]+[.]cjs$/.test(p)).map((p) => p.split(/[\\\\/]/).pop()).concat(carried).sort();
  process.stderr.write('probe: sqlite ' + (process.moduleLoadList.includes('NativeModule sqlite') ? 'loaded' : 'not loaded') + '\\n');
  process.stderr.write('bundles: ' + bundles.join(' ') + '\\n');
  return write(chunk, ...rest);
};
`;

/** The probe, in a file of its own; the environment that preloads it. */
function probed(): NodeJS.ProcessEnv {
  const probe = join(tempDir('checkin-probe-'), 'probe.cjs');
  writeFileSync(probe, PROBE);
  return { ...env, NODE_OPTIONS: `--require ${probe}` };
}

/** The bundles loaded at each line the server wrote (the probe's words). */
const bundlesAt = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('bundles: '));
/** The single executable carries its bundles inside (no file to require): there the probe sees those it read (`mcp-server`). */
const BUNDLED_FILES = BINARY === undefined;
/** The bundles loaded when the first answer goes out, before the CLI and the SDK: the first answer's own (the binary holds it in its start-up heap). */
const FIRST_ONLY = BUNDLED_FILES ? 'bundles: mcp-first.cjs' : 'bundles: ';
/** What the server says when its own first answer is not the one sent (stdio.ts). */
const NOT_THE_SERVERS = /was not the server's/;

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
async function conversation(first: Msg, then: readonly Msg[]): Promise<{ answers: Array<Record<string, unknown>>; probe: string[]; stderr: string }> {
  const child = track(spawn(CLI_WORDS[0]!, [...CLI_WORDS.slice(1), 'mcp'], { env: probed(), stdio: ['pipe', 'pipe', 'pipe'] }));
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
  return { answers, probe: err.split('\n').filter((l) => l.startsWith('probe: ')), stderr: err };
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

      const { answers, probe, stderr } = await conversation(first, then);
      expect(answers.map((a) => [a.id, 'result' in a])).toEqual([
        [first.id, true],
        [then.at(-1)!.id, true],
      ]);
      // The first line out: SQLite not yet loaded; by the next answer the outbox was looked at.
      expect(probe).toEqual(['probe: sqlite not loaded', 'probe: sqlite loaded']);
      // The first line out came from the first answer's bundle alone: neither the CLI nor the SDK was loaded yet.
      if (BUNDLED_FILES) expect(bundlesAt(stderr)).toEqual(['bundles: mcp-first.cjs', 'bundles: checkin.cjs mcp-first.cjs mcp-server.cjs']);
      else expect(bundlesAt(stderr)).toEqual([FIRST_ONLY, expect.stringMatching(/^bundles: .*\bmcp-server\b/)]);
      expect(stderr).not.toMatch(NOT_THE_SERVERS);
    });
  }
});

describe('checkin mcp: the session after the first answer is the one the server would have had', () => {
  for (const revision of ['2025-11-25', 'auto'] as const) {
    it(`${revision === 'auto' ? '2026-07-28 (server/discover)' : '2025-11-25 (initialize)'}: the first answer before the SDK; then the official client lists the tools and calls one, validated`, async () => {
      const s = await connect({ revision, env: probed() });
      // The 2026 client connects without a word (it asks server/discover only when told to): told to first, so the first line is that.
      if (revision === 'auto') expect((await (s.client as unknown as ModernClient).discover()).supportedVersions).toEqual(['2026-07-28']);
      const listed = await s.client.listTools();
      expect(listed.tools.map((t) => t.name)).toContain('get_checkin');
      // The client checks the structured result against the tool's output schema.
      const got = await s.call('me');
      expect(got.isError).toBeFalsy();
      expect(got.structuredContent).toMatchObject({ me: { username: 'ada' } });
      if (revision === 'auto') expect((s.client as unknown as ModernClient).getNegotiatedProtocolVersion()).toBe('2026-07-28');
      // The first line the server wrote was written before the CLI or the SDK was loaded, and the server's own answer to it matched.
      expect(bundlesAt(s.stderr())[0]).toBe(FIRST_ONLY);
      expect(s.stderr()).not.toMatch(NOT_THE_SERVERS);
    });
  }
});

describe('the server reading what was answered before it was loaded (stdio.ts)', () => {
  it('reads the bytes first, as they came; its own answer to the first request is not sent again, and one that differs is said', async () => {
    const run = async (said: string) => {
      const input = new PassThrough();
      const out: string[] = [];
      const output = new Writable({
        write(chunk: Buffer, _encoding, done) {
          out.push(chunk.toString());
          done();
        },
      });
      const read = Buffer.from('{"jsonrpc":"2.0","id":7,"method":"ping"}\n{"jsonrpc":"2.0","id":8,');
      const t = new LineTransport(input, output, undefined, { read, ended: false, answered: { id: 7, line: said } });
      const errors: string[] = [];
      const got: unknown[] = [];
      t.onerror = (e) => errors.push(e.message);
      t.onmessage = (m) => got.push(m);
      await t.start();
      // The rest of the second line comes after: the two pieces make one message.
      input.write('"method":"ping"}\n');
      await new Promise((r) => setImmediate(r));
      expect(got).toEqual([
        { jsonrpc: '2.0', id: 7, method: 'ping' },
        { jsonrpc: '2.0', id: 8, method: 'ping' },
      ]);
      await t.send({ result: {}, jsonrpc: '2.0', id: 7 });
      await t.send({ result: {}, jsonrpc: '2.0', id: 8 });
      await t.close();
      return { out, errors };
    };
    const same = await run('{"result":{},"jsonrpc":"2.0","id":7}');
    expect(same).toEqual({ out: ['{"result":{},"jsonrpc":"2.0","id":8}\n'], errors: [] });
    const other = await run('{"result":{"other":true},"jsonrpc":"2.0","id":7}');
    expect(other.out).toEqual(['{"result":{},"jsonrpc":"2.0","id":8}\n']);
    expect(other.errors).toEqual([expect.stringMatching(NOT_THE_SERVERS)]);
  });

  it('answers written while the output is full all wait for one drain: twenty at once, one listener, no warning, each written in order', async () => {
    const out: string[] = [];
    let release: (() => void) | undefined;
    const output = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk.toString());
        // The first write is held, as a pipe whose reader is busy: the rest queue behind it.
        if (out.length === 1) release = done;
        else done();
      },
    });
    const t = new LineTransport(new PassThrough(), output);
    const warnings: string[] = [];
    const warned = (w: Error) => warnings.push(w.name);
    process.on('warning', warned);
    try {
      const sent = Array.from({ length: 20 }, (_, i) => t.send({ jsonrpc: '2.0', id: i, result: {} }));
      expect(output.listenerCount('drain')).toBe(1);
      release!();
      await Promise.all(sent);
      await new Promise((r) => setImmediate(r));
      expect(out.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(output.listenerCount('drain')).toBe(0);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', warned);
      await t.close();
    }
  });
});

describe('checkin mcp: what the first answer leaves to the server', () => {
  const initialize = (capabilities: unknown): Msg => ({ ...INITIALIZE, params: { ...INITIALIZE.params, capabilities } });
  const discover = (capabilities: unknown): Msg => ({
    ...DISCOVER,
    params: { _meta: { ...(DISCOVER.params as { _meta: object })._meta, 'io.modelcontextprotocol/clientCapabilities': capabilities } },
  });
  // The SDK reads each known capability's fields as objects, but for two flags, booleans.
  const REFUSED = [
    { sampling: { context: 5 } },
    { elicitation: { form: 1 } },
    { elicitation: { form: { applyDefaults: {} } } },
    { roots: { listChanged: {} } },
    { experimental: { x: 5 } },
  ];
  const TAKEN = {
    roots: { listChanged: true },
    sampling: {},
    elicitation: { form: { applyDefaults: true }, url: {} },
    tasks: { requests: { sampling: { createMessage: {} } } },
  };

  it('capabilities the SDK refuses are not answered first; those it takes are, in both revisions', () => {
    for (const make of [initialize, discover]) {
      for (const capabilities of REFUSED) expect(firstAnswer(JSON.stringify(make(capabilities)), 'words'), JSON.stringify(capabilities)).toBeUndefined();
      expect(firstAnswer(JSON.stringify(make(TAKEN)), 'words')).toMatchObject({ id: make(TAKEN).id });
    }
  });

  it('a first request the SDK refuses is answered once, by the SDK, with its error; one it takes, first and as the SDK would', async () => {
    const refused = await conversation(initialize({ sampling: { context: 5 } }), []);
    expect(refused.answers).toEqual([{ jsonrpc: '2.0', id: 1, error: expect.objectContaining({ code: expect.any(Number) }) }]);
    expect(refused.stderr).not.toMatch(NOT_THE_SERVERS);
    const taken = await conversation(initialize(TAKEN), []);
    expect(taken.answers).toEqual([expect.objectContaining({ id: 1, result: expect.objectContaining({ protocolVersion: '2025-11-25' }) })]);
    expect(bundlesAt(taken.stderr)[0]).toBe(FIRST_ONLY);
    expect(taken.stderr).not.toMatch(NOT_THE_SERVERS);
  });

  // A full disk, as a file system says it (ENOSPC): the first answer's write fails, or the server's.
  it.skipIf(!existsSync('/dev/full'))('stdout that cannot be written: one line and exit 1, whether the first answer or the server wrote first', async () => {
    for (const first of [INITIALIZE, { jsonrpc: '2.0', id: 1, method: 'ping' }]) {
      const full = openSync('/dev/full', 'w');
      try {
        const child = track(spawn(CLI_WORDS[0]!, [...CLI_WORDS.slice(1), 'mcp'], { env, stdio: ['pipe', full, 'pipe'] }));
        // Standard input stays open: the failure alone ends the conversation.
        child.stdin!.write(`${JSON.stringify(first)}\n`);
        const { code, stderr } = await outcome(child, `checkin mcp > /dev/full (${first.method})`);
        expect({ code, stderr }).toEqual({ code: 1, stderr: 'error: standard output cannot be written: no space left on the device\n' });
      } finally {
        closeSync(full);
      }
    }
  });
});
