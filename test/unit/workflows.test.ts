// The release workflow (.github/workflows/release.yml), read as GitHub reads it: actionlint's rules
// that matter here (test/helpers/workflow-lint.ts says why they are written out, not installed),
// then what a release must do — the suite, `npm run release`, npm's trusted publishing with
// provenance and no token, every file of SHA256SUMS attested and put on the release — each job
// with only the permissions it uses.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { lintWorkflow, PINNED } from '../helpers/workflow-lint.js';

const DIR = join(__dirname, '..', '..', '.github', 'workflows');
const RELEASE = readFileSync(join(DIR, 'release.yml'), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  permissions: Record<string, string>;
  needs?: string;
  steps: Step[];
}
const workflow = parse(RELEASE) as { on: { push: { tags: string[] } }; permissions: Record<string, string>; jobs: Record<string, Job> };
const action = (s: Step) => s.uses?.slice(0, s.uses.indexOf('@'));

describe('every workflow keeps the rules', () => {
  it.each(readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)))('%s', (file) => {
    expect(lintWorkflow(readFileSync(join(DIR, file), 'utf8'))).toEqual([]);
  });
});

describe('the rules find what they are for', () => {
  it('each break is named: scope, pin, input, expression, script, key', () => {
    const bad = [
      'on: push',
      'permissions: write-all',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-24.04',
      '    needs: b',
      '    steps:',
      '      - uses: actions/checkout@v7',
      '      - uses: actions/setup-node@820762786026740c76f36085b0efc47a31fe5020 # v6.5.0',
      '        with:',
      '          nodeversion: 24',
      '      - uses: actions/attest-build-provenance@a2bbfa25375fe432b6a289bc6b6cd05ecd0c4c32 # v4.1.0',
      '        with:',
      '          subject-path: a',
      '          subject-checksums: b',
      '      - uses: actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f',
      '      - uses: someone/else@0123456789012345678901234567890123456789',
      '      - run: echo "${{ github.event.head_commit.message }}"',
      '      - run: echo',
      '        env:',
      "          X: ${{ foo.bar || format('{0}', github.sha) || evil(1) }}",
      '        timeout: 5',
      '  b:',
      '    runs-on: ubuntu-24.04',
      '    permissions:',
      '      id-token: read',
      '      everything: write',
      '    steps:',
      '      - name: neither',
      '',
    ].join('\n');
    expect(lintWorkflow(bad)).toEqual([
      'workflow.permissions: "write-all" gives every scope; name the ones used',
      'jobs.a: no permissions of its own',
      'jobs.a.steps[0].uses: actions/checkout@v7 is not pinned by a full commit SHA',
      'jobs.a.steps[1].with: actions/setup-node has no input "nodeversion"',
      'jobs.a.steps[2].with: actions/attest-build-provenance needs exactly one of subject-path, subject-digest, subject-checksums (2 given)',
      'jobs.a.steps[3].with: actions/upload-artifact needs "path"',
      'jobs.a.steps[4].uses: someone/else is not among the actions whose inputs are known (test/helpers/workflow-lint.ts PINNED)',
      'jobs.a.steps[5].run: an expression is pasted into the script (pass it through env: instead)',
      'jobs.a.steps[6]: unknown key "timeout"',
      'jobs.b.permissions: id-token cannot be "read"',
      'jobs.b.permissions: unknown scope "everything"',
      'jobs.b.steps[0]: needs exactly one of "uses" and "run"',
      'line 8: actions/checkout@v7 has no "# v7.0.1" comment',
      'line 9: the comment says v6.5.0, the commit is v7.0.0',
      'line 16: actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f has no "# v7.0.0" comment',
      'line 21: unknown context "foo"',
      'line 21: unknown function evil()',
    ]);
  });
  it("a commit that is not the known one, a job that needs none, a repeated key, a trigger that runs others' code", () => {
    const sha = PINNED['actions/checkout']!.sha.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect(
      lintWorkflow(
        [
          'on:',
          '  pull_request_target:',
          'jobs:',
          '  a:',
          '    permissions: {}',
          '    needs: z',
          '    steps:',
          `      - uses: actions/checkout@${sha} # v7.0.1`,
        ].join('\n'),
      ),
    ).toEqual([
      "on: pull_request_target runs with the repository's token on others' code",
      'jobs.a: needs "z", which is no job here',
      `jobs.a.steps[0].uses: actions/checkout@${sha} is not the commit known as v7.0.1 (${PINNED['actions/checkout']!.sha})`,
    ]);
    expect(lintWorkflow('on: push\non: tag\n')[0]).toMatch(/^yaml: Map keys must be unique/);
  });
});

describe('the release', () => {
  const { build, 'github-release': upload } = workflow.jobs;
  const runs = (job: Job) => job.steps.map((s) => s.run ?? `uses ${action(s)}`);
  const index = (job: Job, find: (s: Step) => boolean) => job.steps.findIndex(find);

  it('starts from a version tag, and the token does nothing by default', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*'] } });
    expect(workflow.permissions).toEqual({});
  });

  it('builds with the three permissions it uses: read the code, an OIDC token (npm, the attestations), write attestations', () => {
    expect(build!.permissions).toEqual({ contents: 'read', 'id-token': 'write', attestations: 'write' });
  });

  it("runs npm ci, npm test, npm run release and the release's own tests, in that order, then attests every file SHA256SUMS lists, then publishes to npm", () => {
    const order = [
      index(build!, (s) => s.run === 'npm ci'),
      index(build!, (s) => s.run === 'npm test'),
      index(build!, (s) => s.run === 'npm run release'),
      index(build!, (s) => s.env?.CHECKIN_TEST_RELEASE === '1' && /^npx vitest run test\/install\/release\.test\.ts /.test(s.run ?? '')),
      index(build!, (s) => action(s) === 'actions/attest-build-provenance'),
      index(build!, (s) => /\bnpm publish\b/.test(s.run ?? '')),
    ];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(build!.steps[order[4]!]!.with).toEqual({ 'subject-checksums': 'release/SHA256SUMS' });
  });

  it('publishes the package npm run release made, with provenance, and no token anywhere (trusted publishing)', () => {
    const publish = build!.steps.find((s) => /\bnpm publish\b/.test(s.run ?? ''))!;
    expect(publish.run).toContain('npm publish "./release/checkin-cli-$version.tgz" --provenance --access public');
    expect(publish.env).toBeUndefined();
    expect(RELEASE).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./);
    const checkout = build!.steps.find((s) => action(s) === 'actions/checkout')!;
    expect(checkout.with).toEqual({ 'persist-credentials': false });
    // setup-node's registry-url would write an npm token line that npm tries before the OIDC exchange.
    const node = build!.steps.find((s) => action(s) === 'actions/setup-node')!;
    expect(node.with).toEqual({ 'node-version': 24, 'package-manager-cache': false });
  });

  it('puts exactly the files SHA256SUMS lists, and SHA256SUMS, on the release, from a job that may write but runs none of the code', () => {
    expect(upload!.needs).toBe('build');
    expect(upload!.permissions).toEqual({ contents: 'write' });
    expect(runs(upload!).some((r) => /\bnpm\b|node /.test(r))).toBe(false);
    expect(upload!.steps.some((s) => action(s) === 'actions/checkout')).toBe(false);
    const put = upload!.steps.at(-1)!.run!;
    expect(put).toContain('sha256sum -c SHA256SUMS');
    expect(put).toContain('cut -d\' \' -f3 SHA256SUMS | xargs gh release upload "$TAG" SHA256SUMS --clobber');
  });
});
