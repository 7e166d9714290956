// The MCP Bundle (.mcpb) for one-click install in the desktop apps that take them: the one
// `npm run release` wrote (release/checkin-<version>.mcpb, where .ci/run sets CHECKIN_TEST_RELEASE=1
// after the release), else one made here from the built dist/ by scripts/mcpb.mjs, the same function.
// What is in it (the manifest, the licence, the npm package's runtime files under server/, nothing
// else), what the manifest says (package.json's version, the token a sensitive setting, the API URL
// with checkin's default), validated by the official `mcpb` tool where CHECKIN_TEST_MCPB names its
// CLI (.ci/run installs @anthropic-ai/mcpb into a cache folder outside the repository: it is not a
// devDependency), and the server run as a host runs it: the manifest's command, its ${__dirname}
// and ${user_config.*} filled in, driven by the official MCP client against the sandbox.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cleanup.js';
import { cleanEnv, ROOT } from '../helpers/cli.js';
import { text } from '../helpers/mcp.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { DEFAULT_API_URL } from '../../src/api/types.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; engines: { node: string }; license: string };
const NAME = `checkin-${pkg.version}.mcpb`;
const released = process.env.CHECKIN_TEST_RELEASE === '1' ? join(ROOT, 'release', NAME) : undefined;
const MCPB = process.env.CHECKIN_TEST_MCPB;
const haveMcpb = MCPB !== undefined && existsSync(MCPB);
if (!haveMcpb) console.log('mcpb: validation by the official mcpb tool skipped, CHECKIN_TEST_MCPB names no mcpb CLI (.ci/run installs @anthropic-ai/mcpb)');

interface Manifest {
  manifest_version: string;
  name: string;
  version: string;
  license: string;
  server: { type: string; entry_point: string; mcp_config: { command: string; args: string[]; env: Record<string, string> } };
  user_config: Record<string, { type: string; sensitive?: boolean; required?: boolean; default?: string }>;
  compatibility: { runtimes: { node: string } };
}

let bundle: string;
let unpacked: string;
let manifest: Manifest;
beforeAll(() => {
  if (released) {
    // Where the release was built, its bundle is the one checked: a release without one fails here.
    expect(existsSync(released), `${released}: npm run release writes it`).toBe(true);
    bundle = released;
  } else {
    const dir = tempDir('checkin-mcpb-');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'mcpb.mjs'), dir], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
    bundle = join(dir, NAME);
  }
  unpacked = tempDir('checkin-mcpb-unpacked-');
  execFileSync('unzip', ['-q', bundle, '-d', unpacked], { timeout: 60_000 });
  manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as Manifest;
});

/** Every file under a folder, relative to it, sorted. */
function files(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel))
    .flatMap((n) => (statSync(join(dir, rel, n)).isDirectory() ? files(dir, `${rel}${n}/`) : [`${rel}${n}`]))
    .sort();
}

describe('the .mcpb bundle', () => {
  it("holds the manifest, the licence and the npm package's runtime files (the same bytes), nothing else", () => {
    expect(files(unpacked)).toEqual([
      'LICENSE',
      'manifest.json',
      'server/bin/checkin.js',
      'server/bin/package.json',
      'server/dist/checkin.cjs',
      'server/dist/mcp-first.cjs',
      'server/dist/mcp-server.cjs',
    ]);
    if (!released)
      for (const f of ['bin/checkin.js', 'dist/checkin.cjs', 'dist/mcp-first.cjs', 'dist/mcp-server.cjs'])
        expect(readFileSync(join(unpacked, 'server', f)).equals(readFileSync(join(ROOT, f))), f).toBe(true);
    // Listed in the zip in the manifest's order, every entry at one time (the release's).
    const listing = execFileSync('unzip', ['-Z1', bundle], { encoding: 'utf8' }).trim().split('\n');
    expect(listing[0]).toBe('manifest.json');
    expect(new Set(execFileSync('unzip', ['-Z', '-T', bundle], { encoding: 'utf8' }).match(/\b\d{8}\.\d{6}\b/g)).size).toBe(1);
  });

  it("its manifest: package.json's version, Node range and licence; `node server/bin/checkin.js mcp`; the token sensitive and required, the API URL checkin's default", () => {
    expect(manifest).toMatchObject({ manifest_version: '0.3', name: 'checkin', version: pkg.version, license: pkg.license });
    expect(manifest.server).toEqual({
      type: 'node',
      entry_point: 'server/bin/checkin.js',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/server/bin/checkin.js', 'mcp'],
        env: { CHECKIN_TOKEN: '${user_config.token}', CHECKIN_API_URL: '${user_config.api_url}' },
      },
    });
    expect(existsSync(join(unpacked, manifest.server.entry_point))).toBe(true);
    expect(manifest.user_config.token).toMatchObject({ type: 'string', sensitive: true, required: true });
    expect(manifest.user_config.api_url).toMatchObject({ type: 'string', required: false, default: DEFAULT_API_URL });
    expect(manifest.user_config.api_url!.sensitive).toBeFalsy();
    expect(manifest.compatibility.runtimes.node).toBe(pkg.engines.node);
  });

  it.skipIf(!haveMcpb)('the official mcpb tool validates its manifest, reads the bundle, and refuses a manifest that is wrong', () => {
    const ok = execFileSync(process.execPath, [MCPB!, 'validate', join(unpacked, 'manifest.json')], { encoding: 'utf8', timeout: 60_000 });
    expect(ok).toContain('Manifest schema validation passes');
    const info = execFileSync(process.execPath, [MCPB!, 'info', bundle], { encoding: 'utf8', timeout: 60_000 });
    expect(info).toContain(`File: ${NAME}`);
    // The control: the same manifest with the token's secrecy said wrongly is refused.
    const bad = join(tempDir('checkin-mcpb-bad-'), 'manifest.json');
    writeFileSync(bad, JSON.stringify({ ...manifest, user_config: { ...manifest.user_config, token: { ...manifest.user_config.token, sensitive: 'yes' } } }));
    let refused = '';
    try {
      execFileSync(process.execPath, [MCPB!, 'validate', bad], { encoding: 'utf8', stdio: 'pipe', timeout: 60_000 });
    } catch (err) {
      refused = String((err as { stdout?: string; stderr?: string }).stderr) + String((err as { stdout?: string }).stdout);
    }
    expect(refused).toContain('user_config.token.sensitive');
  });
});

describe('the bundle, run as a host runs it', () => {
  let sb: Sandbox;
  useSandboxEnv((s) => (sb = s));
  const open: Client[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close().catch(() => undefined);
  });

  it("the manifest's command with the person's token and URL filled in: the official client lists the tools and reads today's check-in from the service", async () => {
    const fill = (s: string) =>
      s.replaceAll('${__dirname}', unpacked).replaceAll('${user_config.token}', sb.token).replaceAll('${user_config.api_url}', sb.url);
    const { command, args, env } = manifest.server.mcp_config;
    // The host's Node: this test's own.
    expect(command).toBe('node');
    const home = cleanEnv();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: args.map(fill),
      env: {
        ...(home as Record<string, string>),
        CHECKIN_TOKEN: '',
        CHECKIN_API_URL: '',
        ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(v)])),
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'desktop-host', version: '1.0.0' });
    await client.connect(transport);
    open.push(client);
    expect(client.getServerVersion()).toMatchObject({ name: 'checkin', version: pkg.version });
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('get_checkin');
    sb.requests.length = 0;
    const r = await client.callTool({ name: 'get_checkin', arguments: {} });
    expect(r.isError, text(r as never)).toBeFalsy();
    // It asked the sandbox (the URL given), with the token given.
    expect(sb.requests.some((q) => q.path.startsWith('/api/v2/check-ins'))).toBe(true);
  });
});
