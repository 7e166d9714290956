// Makes the package as it is published (`npm run package`): checkin-cli-<version>.tgz.
//
// The repository's package.json is for working on checkin: its scripts need scripts/ and the
// devDependencies (esbuild bundles everything into dist/), none of which are in the package. So the
// package is packed from a staged copy: the build, then exactly the files `npm pack` would take
// here, with a package.json without `scripts` and `devDependencies` (the bundle needs no
// dependency at run time; the one optional one, the OS keychain module, stays). Then
//   npm publish ./checkin-cli-<version>.tgz
// publishes that tarball. `npm pack` and `npm publish` in the repository itself are refused
// (prepack, prepublishOnly): they would pack the working package.json, and a git install's
// tarball is made without either (npm runs only `prepare` there).
//
//   node scripts/pack.mjs [--pack-destination DIR] [--dry-run] [--json] [--no-build]
//     --pack-destination  where the tarball goes (default: the repository)
//     --no-build          pack dist/ as it is (the tests: other test files run that build meanwhile)
//     --dry-run           build and stage, report, write no tarball
//     --json              print `npm pack --json`'s report instead of one line
//   node scripts/pack.mjs --refuse pack|publish   (prepack, prepublishOnly) says what to run instead, exits 1
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    'pack-destination': { type: 'string', default: root },
    'dry-run': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    refuse: { type: 'string' },
  },
});
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const tarball = `${manifest.name}-${manifest.version}.tgz`;

if (values.refuse !== undefined) {
  process.stderr.write(
    `npm ${values.refuse} in the repository would take its working package.json (scripts, devDependencies).\n` +
      (values.refuse === 'publish'
        ? `Publish the package made for it:  npm run package && npm publish ./${tarball}\n`
        : `npm run package makes the package as it is published: ./${tarball}\n`),
  );
  process.exit(1);
}
if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0) {
  // Everything is bundled into dist/: a run-time dependency would be a mistake to look at first.
  throw new Error(`package.json has dependencies (${Object.keys(manifest.dependencies).join(', ')}); the bundle is meant to need none`);
}

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });

if (!values['no-build']) execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit', timeout: 120_000 });
// What npm takes from here (`files`, and package.json, README and LICENSE, which it always takes).
const [listed] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], root));

const stage = mkdtempSync(join(tmpdir(), 'checkin-pack-'));
try {
  for (const { path } of listed.files) {
    if (path === 'package.json') continue;
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    copyFileSync(join(root, path), join(stage, path));
  }
  const { scripts, devDependencies, directories, ...published } = manifest;
  // npm links the pages a manifest's `man` lists into its prefix's share/man on install; it reads
  // `directories.man` only when publishing from a folder, so the published manifest lists them.
  published.man = listed.files
    .map((f) => f.path)
    .filter((p) => p.startsWith(`${directories.man}/`))
    .sort()
    .map((p) => `./${p}`);
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
  const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', resolve(values['pack-destination'])];
  if (values['dry-run']) args.push('--dry-run');
  const report = npm(args, stage);
  const [packed] = JSON.parse(report);
  if (packed.files.length !== listed.files.length)
    throw new Error(`the staged package has ${packed.files.length} files, the repository ${listed.files.length}`);
  if (values.json) process.stdout.write(report);
  else {
    const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
    const where = values['dry-run'] ? '(dry run, not written)' : join(resolve(values['pack-destination']), packed.filename);
    process.stdout.write(`${packed.filename}: ${packed.entryCount} files, ${kB(packed.size)} packed, ${kB(packed.unpackedSize)} unpacked ${where}\n`);
  }
} finally {
  rmSync(stage, { recursive: true, force: true });
}
