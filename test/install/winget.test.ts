// The winget manifests `npm run release` wrote (release/CheckinCli.Checkin*.yaml), validated against
// winget's own published schemas with Ajv — read from the folder CHECKIN_WINGET_SCHEMAS names (a copy of
// winget-cli's schemas/JSON/manifests, kept outside the repository: it is not ours to commit), which is
// in node_modules through the MCP SDK; and what they say: the Windows zip at its SHA-256, checkin.exe
// inside it as the portable command `checkin`, the identifier `checkin upgrade` prints. Run where the
// release was just built (.ci/run sets CHECKIN_TEST_RELEASE=1 after `npm run release`); the schemas'
// own checks (that they reject what winget rejects) run everywhere.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { upgradeCommand, WINGET_ID } from '../../src/domain/upgrade.js';
import { ROOT } from '../helpers/cli.js';

const RELEASE = join(ROOT, 'release');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const SCHEMAS = process.env.CHECKIN_WINGET_SCHEMAS;
const haveSchemas = SCHEMAS !== undefined && existsSync(SCHEMAS);
if (!haveSchemas) console.log("winget: validation against winget's schemas skipped, CHECKIN_WINGET_SCHEMAS names no folder of them");
/** The manifest version npm run release writes (scripts/release.mjs). */
const manifestVersion = '1.28.0';
const asked = process.env.CHECKIN_TEST_RELEASE === '1';
const have = asked && existsSync(join(RELEASE, `${WINGET_ID}.yaml`));
if (!have)
  console.log(
    `winget: the release's manifests skipped, ${asked ? `no release/${WINGET_ID}.yaml (npm run release writes it)` : 'CHECKIN_TEST_RELEASE=1 is not set (.ci/run sets it after npm run release)'}`,
  );

type Kind = 'version' | 'installer' | 'defaultLocale';
const FILES: Record<Kind, string> = {
  version: `${WINGET_ID}.yaml`,
  installer: `${WINGET_ID}.installer.yaml`,
  defaultLocale: `${WINGET_ID}.locale.en-US.yaml`,
};

/** Ajv with winget's schema of `kind` (draft-07, as published), strict about the schema itself. */
function validator(kind: Kind) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  // winget's own formats that JSON Schema does not define: "long" is a number, checked by its type.
  ajv.addFormat('long', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  const schema = JSON.parse(readFileSync(join(SCHEMAS!, `v${manifestVersion}`, `manifest.${kind}.${manifestVersion}.json`), 'utf8')) as object;
  return ajv.compile(schema);
}

const sums = () =>
  new Map(
    readFileSync(join(RELEASE, 'SHA256SUMS'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(66), l.slice(0, 64)] as const),
  );

describe.skipIf(!haveSchemas)("winget's schemas", () => {
  it('reject what winget rejects: no installers, a hash that is not one, a type winget has not, an identifier without its publisher', () => {
    const check = validator('installer');
    const base = {
      PackageIdentifier: WINGET_ID,
      PackageVersion: version,
      InstallerType: 'zip',
      NestedInstallerType: 'portable',
      NestedInstallerFiles: [{ RelativeFilePath: 'checkin.exe', PortableCommandAlias: 'checkin' }],
      Installers: [{ Architecture: 'x64', InstallerUrl: 'https://example.com/checkin.zip', InstallerSha256: 'A'.repeat(64) }],
      ManifestType: 'installer',
      ManifestVersion: manifestVersion,
    };
    expect(check(base), JSON.stringify(check.errors)).toBe(true);
    expect(check({ ...base, Installers: [] })).toBe(false);
    expect(check({ ...base, Installers: [{ ...base.Installers[0], InstallerSha256: 'not a hash' }] })).toBe(false);
    expect(check({ ...base, InstallerType: 'tarball' })).toBe(false);
    expect(
      validator('version')({
        PackageIdentifier: 'checkin',
        PackageVersion: version,
        DefaultLocale: 'en-US',
        ManifestType: 'version',
        ManifestVersion: manifestVersion,
      }),
    ).toBe(
      false, // an identifier is Publisher.Package
    );
  });
});

describe.skipIf(!have)('the release’s winget manifests', () => {
  const read = (kind: Kind) => {
    const text = readFileSync(join(RELEASE, FILES[kind]), 'utf8');
    return { text, doc: parse(text) as Record<string, unknown> };
  };

  it.each(['version', 'installer', 'defaultLocale'] as const)('the %s manifest is valid against winget’s schema and names its schema', (kind) => {
    const { text, doc } = read(kind);
    if (haveSchemas) {
      const check = validator(kind);
      expect(check(doc), JSON.stringify(check.errors, null, 2)).toBe(true);
    }
    expect(text).toContain(`# yaml-language-server: $schema=https://aka.ms/winget-manifest.${kind}.${manifestVersion}.schema.json\n`);
    expect(doc).toMatchObject({ PackageIdentifier: WINGET_ID, PackageVersion: version, ManifestType: kind, ManifestVersion: manifestVersion });
  });

  it('installs the Windows zip at its SHA-256, checkin.exe in it as the portable command checkin', () => {
    const zip = `checkin-${version}-win-x64.zip`;
    const listed = sums();
    const { doc } = read('installer');
    expect(doc).toMatchObject({
      InstallerType: 'zip',
      NestedInstallerType: 'portable',
      NestedInstallerFiles: [{ RelativeFilePath: 'checkin.exe', PortableCommandAlias: 'checkin' }],
      Commands: ['checkin'],
    });
    const installers = doc.Installers as Array<{ Architecture: string; InstallerUrl: string; InstallerSha256: string }>;
    expect(installers).toHaveLength(1);
    expect(installers[0]!.Architecture).toBe('x64');
    expect(installers[0]!.InstallerUrl).toMatch(new RegExp(`^https://.*/v${version.replace(/\./g, '\\.')}/${zip.replace(/\./g, '\\.')}$`));
    const actual = createHash('sha256')
      .update(readFileSync(join(RELEASE, zip)))
      .digest('hex');
    expect(installers[0]!.InstallerSha256).toBe(actual.toUpperCase());
    expect(listed.get(zip)).toBe(actual);
    // Each manifest is in SHA256SUMS with its own sum.
    for (const file of Object.values(FILES))
      expect(listed.get(file)).toBe(
        createHash('sha256')
          .update(readFileSync(join(RELEASE, file)))
          .digest('hex'),
      );
    // The identifier is the one `checkin upgrade` tells a winget install to upgrade.
    expect(upgradeCommand('winget', version, 'win-x64')).toBe(`winget upgrade ${doc.PackageIdentifier as string}`);
  });

  it('the version manifest points at the en-US locale, which says what checkin is', () => {
    expect(read('version').doc.DefaultLocale).toBe('en-US');
    expect(read('defaultLocale').doc).toMatchObject({ PackageLocale: 'en-US', PackageName: 'checkin', License: 'MIT', Moniker: 'checkin' });
  });
});
