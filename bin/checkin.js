#!/usr/bin/env node
// A tiny shim: load the built entry, run, and set the exit code without cutting piped output.
import { setFlagsFromString } from 'node:v8';

// undici parses HTTP with llhttp compiled to WebAssembly. V8 would re-compile it with TurboFan
// in background threads, and the process waits for that before it can exit (~85 ms and ~35 MiB
// for a one-request command). The baseline compiler alone is plenty for a CLI.
setFlagsFromString('--liftoff-only');

const { run } = await import('../dist/main.js');
process.exitCode = await run(process.argv.slice(2));
