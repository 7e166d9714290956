// The MCP Bundle (.mcpb): `checkin mcp` for one-click install in the desktop apps that take MCP
// Bundles (Claude's). A zip of manifest.json (the MCPB manifest, version 0.3) and the server: the npm
// package's own runtime files (bin/checkin.js, dist/checkin.cjs, dist/mcp-server.cjs; every package
// is bundled into them, so no node_modules) under server/, run by the host's Node as
// `node server/bin/checkin.js mcp`. The person gives their token (kept by the host as a secret) and,
// for another service than Steady's, the API URL; they reach checkin as CHECKIN_TOKEN and
// CHECKIN_API_URL, as server.json says for the MCP Registry.
//
// `npm run release` makes release/checkin-<version>.mcpb (scripts/release.mjs); run by itself,
// `node scripts/mcpb.mjs <folder>` makes it from the dist/ already built (test/install/mcpb.test.ts).
// The same bytes for the same commit: every time SOURCE_DATE_EPOCH's, entries in a fixed order.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { settle, sourceDateEpoch, zip } from './release-reproducible.mjs';

/** The files of the server, as the npm package lays them out (package.json "files"), under server/. */
export const SERVER_FILES = ['bin/checkin.js', 'bin/package.json', 'dist/checkin.cjs', 'dist/mcp-first.cjs', 'dist/mcp-server.cjs'];

/** The bundle's file name for a version. */
export const mcpbName = (version) => `checkin-${version}.mcpb`;

/** The manifest for package.json's contents: its version, name, licence and Node range, said once there. */
export function manifest(pkg) {
  const repo = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  return {
    manifest_version: '0.3',
    name: 'checkin',
    display_name: 'checkin',
    version: pkg.version,
    description: 'Daily team check-ins (Steady API v2): read, suggest and draft; sent only on your yes',
    long_description:
      "checkin's MCP server: your check-in, your teams' day and open blockers, the inbox, goals and drafts, to read; the agent drafts your check-in, comments and goal updates, and nothing is sent until you say yes to exactly what goes out. The same server as `checkin mcp` from the npm package checkin-cli.",
    author: { name: 'checkin contributors', url: repo },
    repository: { type: 'git', url: repo },
    homepage: pkg.homepage,
    documentation: pkg.homepage,
    support: pkg.bugs.url,
    license: pkg.license,
    keywords: pkg.keywords,
    server: {
      type: 'node',
      entry_point: 'server/bin/checkin.js',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/server/bin/checkin.js', 'mcp'],
        env: { CHECKIN_TOKEN: '${user_config.token}', CHECKIN_API_URL: '${user_config.api_url}' },
      },
    },
    user_config: {
      token: {
        type: 'string',
        title: 'Steady token',
        description: 'Your Steady personal access token (in Steady: My integrations; Read + write to send check-ins)',
        sensitive: true,
        required: true,
      },
      api_url: {
        type: 'string',
        title: 'API URL',
        description: "The API v2 base URL: leave it as it is for Steady's service",
        default: 'https://service.steady.space/api/v2',
        required: false,
      },
    },
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: pkg.engines.node } },
  };
}

/**
 * Writes `<dest>/checkin-<version>.mcpb` from `root`'s built dist/ (staged in `work`), every entry
 * at `epoch`; resolves with its path. Refuses when a server file is missing (build first).
 */
export async function buildMcpb({ root, dest, work, epoch }) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const stage = join(work, 'mcpb');
  rmSync(stage, { recursive: true, force: true });
  for (const f of SERVER_FILES) {
    mkdirSync(join(stage, 'server', f, '..'), { recursive: true });
    copyFileSync(join(root, f), join(stage, 'server', f));
  }
  copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
  writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(manifest(pkg), null, 2)}\n`);
  settle(stage, epoch, ['server/bin/checkin.js']);
  mkdirSync(dest, { recursive: true });
  const file = join(dest, mcpbName(pkg.version));
  await zip(file, stage, ['manifest.json', 'LICENSE', ...SERVER_FILES.map((f) => `server/${f}`)]);
  return file;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dest = resolve(process.argv[2] ?? join(root, 'build'));
  const file = await buildMcpb({ root, dest, work: join(dest, 'work'), epoch: sourceDateEpoch(root) });
  rmSync(join(dest, 'work'), { recursive: true, force: true });
  console.error(`${file}: the MCP Bundle`);
}
