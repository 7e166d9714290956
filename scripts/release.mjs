// npm run release: everything one version of checkin is published as, in release/:
//
//   checkin-<v>-linux-x64.tar.gz     the single binary for Linux (install.sh, `checkin upgrade`)
//   checkin-<v>-linux-arm64.tar.gz   the same for arm64, where qemu-user can run arm64's Node here
//                                    (without it: left out, and said so; the rest is still made)
//   checkin-<v>-win-x64.zip          checkin.exe, from Node's official win-x64 node.exe (Scoop)
//   checkin_<v>_amd64.deb            the binary, its man pages, shell completions and /usr/share/doc
//   checkin_<v>_arm64.deb            (each Linux binary that was built gets one)
//   checkin-cli-<v>.tgz              the npm package, exactly as published (`npm run package`)
//   checkin-<v>.mcpb                 the MCP Bundle (`checkin mcp` for one-click install in desktop apps;
//                                    scripts/mcpb.mjs)
//   checkin.rb                       the Homebrew formula: installs that npm package, depends on node
//   checkin.json                     the Scoop manifest: the Windows zip
//   CheckinCli.Checkin*.yaml         the three winget manifests (version, installer, en-US locale):
//                                    the Windows zip, checkin.exe inside it as a portable `checkin`
//   install.sh                       `curl -fsSL <release>/install.sh | CHECKIN_RELEASE_URL=<release> sh`
//   install.ps1                      the same for Windows (PowerShell): the zip, checked, into the profile
//   SHA256SUMS                       one line for each file above
//
// release/ is exactly what is published: nothing else is in it (what is built on the way is in build/).
// The binaries and archives come from scripts/binary.mjs (`--release`); this adds the rest. The
// formula and manifests name the files where they are published: the npm registry for the package,
// RELEASE_BASE (GitHub's release download folder for v<v>) for the archives. Every archive's times are
// SOURCE_DATE_EPOCH (the last commit's), its entries sorted, their modes and owners fixed
// (scripts/release-reproducible.mjs); scripts/release-compare.mjs builds twice and compares. Checked by
// test/install/release.test.ts, winget.test.ts, install-script.test.ts and deb.test.ts (.ci/run runs
// them on what this made).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildMcpb } from './mcpb.mjs';
import { DEFLATE_LEVEL, settle, sourceDateEpoch, spawnAsync } from './release-reproducible.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const version = pkg.version;
const dest = join(root, 'release');
const work = join(root, 'build', 'work');
const epoch = sourceDateEpoch(root);
const began = Date.now();
const REPO = 'https://github.com/checkin-cli/checkin-cli';
/** Where a version's archives are downloaded from (GitHub releases); `checkin upgrade` reads …/latest/download. */
const RELEASE_BASE = `${REPO}/releases/download/v${version}`;
const SUMMARY = 'Daily team check-ins from the command line';
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...opts });
/** Each published file's SHA-256, read and hashed once (the formula, the manifests and SHA256SUMS name the same files). */
const sums = new Map();
const sha256 = (file) => {
  if (!sums.has(file)) sums.set(file, createHash('sha256').update(readFileSync(file)).digest('hex'));
  return sums.get(file);
};
function fail(message) {
  console.error(`npm run release: ${message}`);
  process.exit(1);
}

// 0. server.json (the MCP Registry's entry) names this version, as the package it points to.
const serverJson = join(root, 'server.json');
const server = JSON.parse(readFileSync(serverJson, 'utf8'));
if (server.version !== version || server.packages.some((p) => p.version !== version)) {
  server.version = version;
  for (const p of server.packages) p.version = version;
  writeFileSync(serverJson, `${JSON.stringify(server, null, 2)}\n`);
  console.error(`server.json: version ${version}, as package.json`);
}
// Every tool below (dpkg-deb, and the scripts run) takes its times from SOURCE_DATE_EPOCH.
process.env.SOURCE_DATE_EPOCH = String(epoch);

// 1. The binaries and their archives (builds dist/ too).
run(process.execPath, [join(root, 'scripts', 'binary.mjs'), '--release'], { stdio: 'inherit' });

// 2. A .deb for each Linux binary built, both side by side (dpkg-deb compresses its binary on a core
// of its own; their lines said in order when both are done) while the npm package and the MCP Bundle
// are made. The binary is taken from its archive (the same bytes).
const debArch = { x64: 'amd64', arm64: 'arm64' };
const debs = Promise.all(
  ['x64', 'arm64']
    .filter((arch) => existsSync(join(dest, `checkin-${version}-linux-${arch}.tar.gz`)))
    .map((arch) => buildDeb(arch, join(dest, `checkin-${version}-linux-${arch}.tar.gz`))),
);

// 3. The npm package, as published.
run(process.execPath, [join(root, 'scripts', 'pack.mjs'), '--no-build', '--pack-destination', dest], { stdio: ['ignore', 'ignore', 'inherit'] });
const tarball = `${pkg.name}-${version}.tgz`;
if (!existsSync(join(dest, tarball))) fail(`scripts/pack.mjs wrote no ${tarball}`);

// 3b. The MCP Bundle: the package's runtime files and a manifest of this version (scripts/mcpb.mjs).
await buildMcpb({ root, dest, work, epoch });

for (const line of await debs) console.error(line);

/** release/checkin_<version>_<debian arch>.deb from the binary in `archive`; resolves with its line. */
async function buildDeb(arch, archive) {
  const tree = join(work, `deb-${arch}`);
  rmSync(tree, { recursive: true, force: true });
  const dir = (p) => {
    mkdirSync(join(tree, p), { recursive: true, mode: 0o755 });
    return join(tree, p);
  };
  const file = (p, content, mode = 0o644) => {
    writeFileSync(join(tree, p), content);
    chmodSync(join(tree, p), mode);
  };
  // The binary and the Node's licence, out of the archive in one reading of it.
  dir('usr/bin');
  dir('usr/share/doc/checkin');
  run('tar', ['xzf', archive, '-C', join(tree, 'usr/bin'), 'checkin', 'LICENSE.node']);
  renameSync(join(tree, 'usr/bin/LICENSE.node'), join(tree, 'usr/share/doc/checkin/LICENSE.node'));
  chmodSync(join(tree, 'usr/bin/checkin'), 0o755);
  chmodSync(join(tree, 'usr/share/doc/checkin/LICENSE.node'), 0o644);
  // Man pages, compressed as Debian's policy asks (gzip -9n: no name or time inside).
  const man = dir('usr/share/man/man1');
  for (const page of readdirSync(join(root, 'man')).filter((f) => f.endsWith('.1'))) {
    writeFileSync(join(man, `${page}.gz`), gzipSync(readFileSync(join(root, 'man', page)), { level: 9 }));
    chmodSync(join(man, `${page}.gz`), 0o644);
  }
  // Completions where each shell's package looks for them: the scripts `checkin completion <shell>`
  // prints, written by the host's binary (the same text in every build).
  const completion = (shell) => run(join(root, 'build', 'checkin'), ['completion', shell]);
  dir('usr/share/bash-completion/completions');
  file('usr/share/bash-completion/completions/checkin', completion('bash'));
  dir('usr/share/zsh/vendor-completions');
  file('usr/share/zsh/vendor-completions/_checkin', completion('zsh'));
  dir('usr/share/fish/vendor_completions.d');
  file('usr/share/fish/vendor_completions.d/checkin.fish', completion('fish'));
  // /usr/share/doc/checkin: the licences (checkin's and the Node inside it) and the changelogs.
  const indent = (text) =>
    text
      .trimEnd()
      .split('\n')
      .map((l) => (l.trim() === '' ? ' .' : ` ${l}`))
      .join('\n');
  file(
    'usr/share/doc/checkin/copyright',
    `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: checkin
Source: ${REPO}

Files: *
Copyright: checkin contributors
License: MIT
${indent(readFileSync(join(root, 'LICENSE'), 'utf8'))}

Files: usr/bin/checkin
Copyright: Node.js contributors and others
Comment: The Node.js runtime inside the single executable, with the libraries
 built into it. Their licences (MIT, BSD, Apache-2.0 and others) are in
 /usr/share/doc/checkin/LICENSE.node, as Node.js ships them; Apache-2.0 is
 also in /usr/share/common-licenses/Apache-2.0.
License: MIT and others
 See /usr/share/doc/checkin/LICENSE.node.
`,
  );
  // What lintian reports and cannot be otherwise: the Node inside is built with its own zlib and
  // mbedtls (a single executable is one file, by design).
  dir('usr/share/lintian/overrides');
  file(
    'usr/share/lintian/overrides/checkin',
    `# The Node.js runtime inside the single executable carries its own copies (one file, by design).
checkin: embedded-library mbedtls [usr/bin/checkin]
checkin: embedded-library zlib [usr/bin/checkin]
`,
  );
  writeFileSync(join(tree, 'usr/share/doc/checkin/changelog.gz'), gzipSync(readFileSync(join(root, 'CHANGELOG.md')), { level: 9 }));
  chmodSync(join(tree, 'usr/share/doc/checkin/changelog.gz'), 0o644);
  const date = new Date(epoch * 1000).toUTCString().replace('GMT', '+0000');
  writeFileSync(
    join(tree, 'usr/share/doc/checkin/changelog.Debian.gz'),
    gzipSync(
      `checkin (${version}) unstable; urgency=medium\n\n  * checkin ${version}: the single binary packaged (see changelog.gz).\n\n -- checkin maintainers <checkin@users.noreply.github.com>  ${date}\n`,
      { level: 9 },
    ),
  );
  chmodSync(join(tree, 'usr/share/doc/checkin/changelog.Debian.gz'), 0o644);
  // The control file: what the binary's Node links against (objdump -p: NEEDED), at the versions
  // its symbols need (GLIBC_2.28, GLIBCXX_3.4.21).
  const size = Math.ceil(Number(run('du', ['-sk', '--apparent-size', join(tree, 'usr')]).split('\t')[0]));
  dir('DEBIAN');
  file(
    'DEBIAN/control',
    `Package: checkin
Version: ${version}
Architecture: ${debArch[arch]}
Maintainer: checkin maintainers <checkin@users.noreply.github.com>
Installed-Size: ${size}
Depends: libc6 (>= 2.28), libstdc++6 (>= 5.2), libgcc-s1 | libgcc1, libatomic1
Section: utils
Priority: optional
Homepage: ${REPO}
Description: ${SUMMARY}
 checkin fills in, reads and reports a team's daily check-ins on Steady
 (API v2): today's questions, the team's answers, goals, comments and an
 inbox, from a terminal, a script or an AI agent (checkin mcp).
 .
 This package is the single executable (Node.js inside): it needs no Node.
`,
  );
  const name = `checkin_${version}_${debArch[arch]}.deb`;
  rmSync(join(dest, name), { force: true });
  // Every file's mode and time fixed (umask and the copies gave what they gave); dpkg-deb takes
  // SOURCE_DATE_EPOCH for the times it writes and sorts the entries.
  settle(tree, epoch, ['usr/bin/checkin']);
  // gzip, not xz: the same package, built in seconds rather than minutes on a small machine (at
  // DEFLATE_LEVEL, as every archive: Debian takes any gzip level).
  await spawnAsync('dpkg-deb', ['--root-owner-group', '-Zgzip', `-z${DEFLATE_LEVEL}`, '--build', tree, join(dest, name)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  rmSync(tree, { recursive: true });
  return `release/${name}: ${(statSync(join(dest, name)).size / 2 ** 20).toFixed(1)} MiB`;
}

// 4. The Homebrew formula: the npm package from the registry, on Homebrew's node.
writeFileSync(
  join(dest, 'checkin.rb'),
  `# Homebrew formula for checkin ${version}, written by \`npm run release\` (scripts/release.mjs).
# brew install ./checkin.rb, or from a tap. The npm package needs Node.js (Homebrew's node).
class Checkin < Formula
  desc "${SUMMARY}"
  homepage "${REPO}"
  url "https://registry.npmjs.org/${pkg.name}/-/${tarball}"
  sha256 "${sha256(join(dest, tarball))}"
  license "MIT"

  depends_on "node"

  def install
    system "npm", "install", *std_npm_args
    bin.install_symlink libexec.glob("bin/*")
    man1.install libexec.glob("lib/node_modules/${pkg.name}/man/*.1")
    generate_completions_from_executable(bin/"checkin", "completion", shells: [:bash, :zsh, :fish])
  end

  test do
    assert_equal "${version}", shell_output("#{bin}/checkin --version").strip
  end
end
`,
);

// 5. The Scoop manifest: the Windows zip.
const zip = `checkin-${version}-win-x64.zip`;
writeFileSync(
  join(dest, 'checkin.json'),
  `${JSON.stringify(
    {
      version,
      description: SUMMARY,
      homepage: REPO,
      license: 'MIT',
      architecture: { '64bit': { url: `${RELEASE_BASE}/${zip}`, hash: sha256(join(dest, zip)) } },
      bin: 'checkin.exe',
      checkver: { github: REPO },
      autoupdate: { architecture: { '64bit': { url: `${REPO}/releases/download/v$version/checkin-$version-win-x64.zip` } } },
    },
    null,
    2,
  )}\n`,
);

// 6. The winget manifests: the Windows zip, checkin.exe inside it installed as a portable command
// `checkin` (winget puts it in %LOCALAPPDATA%\Microsoft\WinGet\Packages and links it from …\WinGet\Links).
// Their identifier is the one `checkin upgrade` prints (src/domain/upgrade.ts says it, once); their
// schemas are winget's, read by test/install/winget.test.ts from CHECKIN_WINGET_SCHEMAS (a copy kept outside the repository).
const WINGET_MANIFEST_VERSION = '1.28.0';
const wingetId = /export const WINGET_ID = '([^']+)'/.exec(readFileSync(join(root, 'src', 'domain', 'upgrade.ts'), 'utf8'))?.[1];
if (!wingetId) fail("src/domain/upgrade.ts says no WINGET_ID: the winget manifests' identifier");
/** A manifest's YAML: every scalar a double-quoted string (JSON's quoting is YAML's), lists and maps indented. */
function yaml(value, indent = '') {
  const scalar = (v) => JSON.stringify(String(v));
  return Object.entries(value)
    .map(([key, v]) => {
      if (!Array.isArray(v)) return `${indent}${key}: ${scalar(v)}\n`;
      return `${indent}${key}:\n${v
        .map((item) => (typeof item === 'object' ? `${indent}- ${yaml(item, `${indent}  `).slice(indent.length + 2)}` : `${indent}- ${scalar(item)}\n`))
        .join('')}`;
    })
    .join('');
}
const wingetFile = (kind, suffix, body) =>
  writeFileSync(
    join(dest, `${wingetId}${suffix}.yaml`),
    `# winget ${kind} manifest for checkin ${version}, written by \`npm run release\` (scripts/release.mjs).
# yaml-language-server: $schema=https://aka.ms/winget-manifest.${kind}.${WINGET_MANIFEST_VERSION}.schema.json
${yaml({ PackageIdentifier: wingetId, PackageVersion: version, ...body, ManifestType: kind, ManifestVersion: WINGET_MANIFEST_VERSION })}`,
  );
wingetFile('version', '', { DefaultLocale: 'en-US' });
wingetFile('installer', '.installer', {
  InstallerType: 'zip',
  NestedInstallerType: 'portable',
  NestedInstallerFiles: [{ RelativeFilePath: 'checkin.exe', PortableCommandAlias: 'checkin' }],
  Commands: ['checkin'],
  ReleaseDate: new Date(epoch * 1000).toISOString().slice(0, 10),
  Installers: [{ Architecture: 'x64', InstallerUrl: `${RELEASE_BASE}/${zip}`, InstallerSha256: sha256(join(dest, zip)).toUpperCase() }],
});
wingetFile('defaultLocale', '.locale.en-US', {
  PackageLocale: 'en-US',
  Publisher: 'checkin contributors',
  PublisherUrl: REPO,
  PackageName: 'checkin',
  PackageUrl: REPO,
  License: 'MIT',
  LicenseUrl: `${REPO}/blob/v${version}/LICENSE`,
  ShortDescription: SUMMARY,
  Description: "checkin fills in, reads and reports a team's daily check-ins on Steady (API v2) from a terminal, a script or an AI agent (checkin mcp).",
  Moniker: 'checkin',
  Tags: ['checkin', 'standup', 'cli', 'steady'],
  ReleaseNotesUrl: `${REPO}/releases/tag/v${version}`,
});

// 7. The install scripts: install.sh for Linux (the README's `curl … | sh`), install.ps1 for Windows.
for (const script of ['install.sh', 'install.ps1']) copyFileSync(join(root, 'scripts', script), join(dest, script));

// 8. One SHA256SUMS over everything published; release/ holds nothing else.
const published = readdirSync(dest)
  .filter((f) => f !== 'SHA256SUMS')
  .sort();
const strays = published.filter((f) => !statSync(join(dest, f)).isFile());
if (strays.length) fail(`release/ holds what is not a published file: ${strays.join(', ')}`);
for (const f of published) chmodSync(join(dest, f), 0o644);
writeFileSync(join(dest, 'SHA256SUMS'), published.map((f) => `${sha256(join(dest, f))}  ${f}\n`).join(''));
console.error(`release/SHA256SUMS: ${published.length} files (${published.join(', ')})`);
if (!existsSync(join(dest, `checkin-${version}-linux-arm64.tar.gz`)))
  console.error('linux-arm64: not built here (no qemu-user with an arm64 C library): no arm64 archive or .deb in this release');
console.error(`npm run release: ${((Date.now() - began) / 1000).toFixed(0)} s`);
