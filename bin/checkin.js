#!/usr/bin/env node
// A tiny shim: load the built entry, run, and set the exit code without cutting piped output.
const { run } = await import('../dist/main.js');
process.exitCode = await run(process.argv.slice(2));
