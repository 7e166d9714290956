// `checkin mcp` against the MCP conformance package (@modelcontextprotocol/conformance, its server
// scenarios; run as its CLI, `conformance server --url … --scenario …`). The package tests servers
// over HTTP only: test/helpers/mcp-http-bridge.ts serves the real `checkin mcp` (stdio, one child a
// session) on 127.0.0.1 for it. Every scenario the package lists is classified here: each applicable
// one must pass all its checks; the others need the suite's own fixtures (tools, prompts and
// resources named test_* / test://…, which a product server does not have) or test an HTTP
// transport's own behaviour (checkin serves stdio; here it would only test the bridge). A scenario
// the package adds in a later version fails this test until it is classified.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cleanup.js';
import { CLI_WORDS, ROOT } from '../helpers/cli.js';
import { startBridge, type Bridge } from '../helpers/mcp-http-bridge.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { patient } from '../helpers/patience.js';

const run = promisify(execFile);
const CONFORMANCE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/** The scenarios checkin must pass. */
export const APPLICABLE = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'tools-list',
  'resources-list',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
] as const;

const FIXTURE = 'needs the suite’s own fixture';
/** The scenarios that do not apply to checkin, and why. */
export const NOT_APPLICABLE: Record<string, string> = {
  'completion-complete': `${FIXTURE} prompt test_prompt_with_arguments (checkin's completions: test/mcp/completions.test.ts)`,
  'tools-call-simple-text': `${FIXTURE} tool test_simple_text`,
  'tools-call-image': `${FIXTURE} tool test_image_content`,
  'tools-call-audio': `${FIXTURE} tool test_audio_content`,
  'tools-call-embedded-resource': `${FIXTURE} tool test_embedded_resource`,
  'tools-call-mixed-content': `${FIXTURE} tool test_multiple_content_types`,
  'tools-call-with-logging': `${FIXTURE} tool test_tool_with_logging (checkin's logging: test/mcp/logging.test.ts)`,
  'tools-call-error': `${FIXTURE} tool test_error_handling`,
  'tools-call-with-progress': `${FIXTURE} tool test_tool_with_progress`,
  'tools-call-sampling': `${FIXTURE} tool test_sampling (checkin never asks the client's model)`,
  'tools-call-elicitation': `${FIXTURE} tool test_elicitation (checkin's elicitation: test/mcp/gate.test.ts)`,
  'json-schema-2020-12': `${FIXTURE} tool json_schema_2020_12_tool`,
  'elicitation-sep1034-defaults': `${FIXTURE} tool test_elicitation_sep1034_defaults`,
  'elicitation-sep1330-enums': `${FIXTURE} tool test_elicitation_sep1330_enums`,
  'server-sse-polling': `${FIXTURE} tool test_reconnection, and tests an HTTP transport's SSE resumption (checkin serves stdio)`,
  'server-sse-multiple-streams': "tests an HTTP transport's concurrent SSE streams (checkin serves stdio)",
  'resources-read-text': `${FIXTURE} resource test://static-text`,
  'resources-read-binary': `${FIXTURE} resource test://static-binary`,
  'resources-templates-read': `${FIXTURE} resource template test://template/{id}/data`,
  'prompts-get-simple': `${FIXTURE} prompt test_simple_prompt`,
  'prompts-get-with-args': `${FIXTURE} prompt test_prompt_with_arguments`,
  'prompts-get-embedded-resource': `${FIXTURE} prompt test_prompt_with_embedded_resource`,
  'prompts-get-with-image': `${FIXTURE} prompt test_prompt_with_image`,
  'dns-rebinding-protection': "tests an HTTP server's Host/Origin checks (checkin serves stdio; here it would test the bridge)",
};

interface Check {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

let env: NodeJS.ProcessEnv;
useSandboxEnv((_sb, e) => {
  env = e;
});

let bridge: Bridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

/** The conformance CLI, with only what it needs in its environment (it talks to the bridge alone). */
const conformance = (args: string[]) =>
  run(process.execPath, [CONFORMANCE, ...args], {
    env: { PATH: process.env.PATH, HOME: env.HOME, TMPDIR: env.TMPDIR, NO_COLOR: '1' },
    timeout: patient(30_000),
    maxBuffer: 10 * 1024 * 1024,
  });

describe('checkin mcp: the MCP conformance package (server scenarios)', () => {
  it('every scenario the package lists is classified: applicable, or not applicable with why', async () => {
    const { stdout } = await conformance(['list', '--server']);
    const listed = [...stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
  });

  it(
    'each applicable scenario passes every check, against the real `checkin mcp` over a loopback bridge',
    async () => {
      bridge = await startBridge({ command: CLI_WORDS[0]!, args: [...CLI_WORDS.slice(1), 'mcp', '--toolsets', 'all'], env });
      const out = tempDir('conformance-');
      const failed: string[] = [];
      for (const scenario of APPLICABLE) {
        const dir = join(out, scenario);
        const result = await conformance(['server', '--url', bridge.url, '--scenario', scenario, '-o', dir]).catch(
          (err: { code?: number; stdout?: string }) => err,
        );
        const [saved] = readdirSync(dir);
        const checks = JSON.parse(readFileSync(join(dir, saved!, 'checks.json'), 'utf8')) as Check[];
        expect(checks.length, scenario).toBeGreaterThan(0);
        const bad = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO');
        if (bad.length > 0 || ('code' in result && result.code))
          failed.push(`${scenario}: ${bad.map((c) => `${c.name} ${c.status} ${c.errorMessage ?? ''}`).join('; ')}`);
      }
      expect(failed).toEqual([]);
      // Each scenario's client opened its own session: a `checkin mcp` of its own.
      expect(bridge.sessions()).toBeGreaterThanOrEqual(APPLICABLE.length);
    },
    patient(60_000),
  );
});
