// The OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on Linux)
// through @napi-rs/keyring: a native module, kept out of the bundle and loaded only when the
// token is read from or written to it. Where there is no keychain (headless Linux, containers,
// CI), every call throws and checkin keeps the token in its settings file instead (mode 0600; on
// Windows, guarded by its folder's ACL: config/files.ts privateFileWords).

import { buildKind, loadCarriedAddon } from './installation.js';

export interface SecretStore {
  /** What it is called in messages: "the macOS keychain", "the system keychain"… */
  name: string;
  get(account: string): string | undefined;
  set(account: string, secret: string): void;
  delete(account: string): void;
}

const SERVICE = 'checkin';

interface KeyringEntry {
  getPassword(): string | null | undefined;
  setPassword(secret: string): void;
  deletePassword(): boolean;
}

/** The OS keychain, or a reason there is none (CHECKIN_NO_KEYCHAIN=1: never used, as for a test's spawned runs). */
export function osKeychain(env: NodeJS.ProcessEnv = process.env): SecretStore | string {
  if (env.CHECKIN_NO_KEYCHAIN && env.CHECKIN_NO_KEYCHAIN !== '0') return 'CHECKIN_NO_KEYCHAIN is set';
  let Entry: new (service: string, account: string) => KeyringEntry;
  if (buildKind() === 'binary') {
    // The binary carries the addon (scripts/binary.mjs) and writes it out to load it.
    try {
      ({ Entry } = loadCarriedAddon('keyring.node', env) as { Entry: typeof Entry });
    } catch (err) {
      return `the keychain addon inside this binary cannot be loaded (${reasonOf(err)})`;
    }
  } else {
    try {
      ({ Entry } = process.getBuiltinModule('node:module').createRequire(import.meta.url)('@napi-rs/keyring') as { Entry: typeof Entry });
    } catch (err) {
      return `the keychain module is not installed (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
    }
  }
  const name = process.platform === 'darwin' ? 'the macOS keychain' : process.platform === 'win32' ? 'the Windows Credential Manager' : 'the system keychain';
  const entry = (account: string) => new Entry(SERVICE, account);
  return {
    name,
    get: (account) => entry(account).getPassword() ?? undefined,
    set: (account, secret) => entry(account).setPassword(secret),
    delete: (account) => void entry(account).deletePassword(),
  };
}

/** The first line of a keychain error (the native module adds a backtrace). */
export function reasonOf(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .trim();
}
