// Opening a link in the browser, as `gh … --web` does: the platform's opener where a desktop is
// there (BROWSER wins), else the URL is printed for the person to open.
import { CliError, EXIT } from '../errors.js';
import type { IO } from './io.js';
import { sanitizeLine } from './sanitize.js';

export function openerFor(env: NodeJS.ProcessEnv, platform = process.platform): string[] | undefined {
  if (env.BROWSER) return [env.BROWSER];
  if (platform === 'darwin') return ['open'];
  if (platform === 'win32') return ['cmd', '/c', 'start', '""'];
  // Linux and the rest: only with a desktop to show it on.
  return env.DISPLAY || env.WAYLAND_DISPLAY ? ['xdg-open'] : undefined;
}

/** Opens `url`; says on stderr what happened (and prints the URL when nothing could open it). */
export async function openInBrowser(io: IO, env: NodeJS.ProcessEnv, url: string | null | undefined): Promise<void> {
  if (!url) throw new CliError('The service sent no web link for this', EXIT.FAILURE);
  const safe = sanitizeLine(url);
  if (!/^(https?|file):\/\//.test(safe)) {
    io.out(`${safe}\n`);
    return;
  }
  const opener = openerFor(env);
  if (!opener) {
    io.out(`${safe}\n`);
    return;
  }
  const failed = await new Promise<string | undefined>((resolve) => {
    const child = process.getBuiltinModule('node:child_process').spawn(opener[0]!, [...opener.slice(1), safe], { stdio: 'ignore', detached: true, env });
    child.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ENOENT' ? 'not found' : (err.code ?? err.message)));
    // Openers hand the link over and exit; a browser started directly is left running (bounded wait).
    child.on('spawn', () => {
      const left = setTimeout(() => {
        child.unref();
        resolve(undefined);
      }, 2000);
      child.on('exit', (code) => {
        clearTimeout(left);
        resolve(code === 0 || code === null ? undefined : `it exited with status ${code}`);
      });
    });
  });
  if (failed === undefined) {
    io.err(`Opening ${safe} in your browser.\n`);
    return;
  }
  const which = env.BROWSER ? `BROWSER=${sanitizeLine(env.BROWSER)}` : opener[0]!;
  io.err(`Could not start the browser (${which}: ${failed}); open the link yourself:\n`);
  io.out(`${safe}\n`);
}
