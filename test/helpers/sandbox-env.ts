// For tests that run the built CLI against a sandbox on the real clock (the CLI has no other): a
// sandbox (its limits off) and a clean environment pointed at it, made before each test and
// closed after it. `take` hands them to the test file's own variables.
import { afterEach, beforeEach } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cleanEnv } from './cli.js';

export function useSandboxEnv(take: (sb: Sandbox, env: NodeJS.ProcessEnv) => void): void {
  let sb: Sandbox | undefined;
  beforeEach(async () => {
    sb = await startSandbox({ rateLimit: false });
    take(sb, cleanEnv({ CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token }));
  });
  afterEach(async () => {
    await sb?.close();
  });
}
