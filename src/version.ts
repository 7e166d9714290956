// The one version string: package.json's, written in at build time (esbuild and vitest `define`).
declare const __CHECKIN_VERSION__: string;

export const VERSION: string = __CHECKIN_VERSION__;
export const USER_AGENT = `checkin/${VERSION}`;
