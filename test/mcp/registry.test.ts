// What the official MCP Registry reads: server.json at the root, naming the npm package, its `mcp`
// argument over stdio and the environment it needs; package.json's mcpName (which the registry
// checks against the published package) is its name; and its version is the package's, as
// `npm run release` keeps it (scripts/release.mjs, step 0).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;

interface Package {
  registryType: string;
  identifier: string;
  version: string;
  transport: { type: string };
  packageArguments: Array<{ type: string; value: string }>;
  environmentVariables: Array<{ name: string; isRequired?: boolean; isSecret?: boolean; default?: string }>;
}

describe('server.json, for the official MCP Registry', () => {
  const server = read('server.json') as { $schema: string; name: string; description: string; version: string; packages: Package[] };
  const pkg = read('package.json') as { name: string; version: string; mcpName: string };

  it("its name is package.json's mcpName, its versions package.json's, its package the npm one started with `mcp` over stdio", () => {
    expect(server.$schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    expect(pkg.mcpName).toBe(server.name);
    expect(server.name).toMatch(/^io\.github\.checkin-cli\/[a-zA-Z0-9._-]+$/);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.version).toBe(pkg.version);
    expect(server.packages).toHaveLength(1);
    const [npm] = server.packages;
    expect(npm).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version, transport: { type: 'stdio' } });
    expect(npm!.packageArguments).toEqual([expect.objectContaining({ type: 'positional', value: 'mcp' })]);
  });

  it('the token is a required secret; the API URL optional, with the default checkin uses', async () => {
    const [npm] = server.packages;
    const env = Object.fromEntries(npm!.environmentVariables.map((v) => [v.name, v]));
    expect(Object.keys(env).sort()).toEqual(['CHECKIN_API_URL', 'CHECKIN_TOKEN']);
    expect(env.CHECKIN_TOKEN).toMatchObject({ isRequired: true, isSecret: true });
    expect(env.CHECKIN_API_URL).toMatchObject({ isRequired: false });
    expect(env.CHECKIN_API_URL!.isSecret).toBeFalsy();
    const { DEFAULT_API_URL } = await import('../../src/api/types.js');
    expect(env.CHECKIN_API_URL!.default).toBe(DEFAULT_API_URL);
  });
});
