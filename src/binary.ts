// The single executable's entry (`npm run binary`, scripts/binary.mjs): what bin/checkin.js is to the
// npm build. Built with a start-up snapshot, this file runs once on the build machine, where
// everything it imports is loaded and set up and the heap is saved into the binary; each run of the
// binary then starts from that heap and calls only `start`. Without a snapshot it simply runs.
// Nothing here may load node:http or node:https at the top (V8 cannot save them in a snapshot):
// src/api/transport.ts loads them at the first request.
import { processContext, run, warmForSnapshot } from './main.js';
import { answerFirst } from './mcp/first.js';

/**
 * The arguments the person typed (in a single executable argv[0] and argv[1] are both the binary).
 * `checkin mcp` gives its first answer first, as bin/checkin.js does (mcp/first.ts), through the
 * process's streams, and hands what was read and said to the CLI: the start-up snapshot holds the
 * CLI already, but the SDK's schemas are built only when the server is loaded.
 */
function start(): void {
  const argv = process.argv.slice(2);
  const ctx = processContext();
  void Promise.resolve(answerFirst(argv, ctx.env, ctx.io))
    .then((opening) => run(argv, ctx, opening))
    .then((code) => {
      process.exitCode = code;
    });
}

const { startupSnapshot } = process.getBuiltinModule('node:v8');
if (startupSnapshot?.isBuildingSnapshot()) {
  void warmForSnapshot();
  startupSnapshot.setDeserializeMainFunction(start);
} else start();
