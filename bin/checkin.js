#!/usr/bin/env node
// A tiny shim: load the built entry, run, and set the exit code without cutting piped output.
import module from 'node:module';

// Node 22.1 and newer keep compiled code between runs (a no-op on Node 20, which lacks it).
module.enableCompileCache?.();
let main;
try {
  main = await import('../dist/main.js');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/main.js')) throw err;
  process.stderr.write('checkin is not built yet: run `npm run build` in its folder (npm install does it for you).\n');
  process.exitCode = 1;
}
if (main) process.exitCode = await main.run(process.argv.slice(2));
