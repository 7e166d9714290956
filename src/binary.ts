// The single executable's entry (`npm run binary`, scripts/binary.mjs): what bin/checkin.js is to the
// npm build. Built with a start-up snapshot, this file runs once on the build machine, where
// everything it imports is loaded and set up and the heap is saved into the binary; each run of the
// binary then starts from that heap and calls only `start`. Without a snapshot it simply runs.
// Nothing here may load node:http or node:https at the top (V8 cannot save them in a snapshot):
// src/api/transport.ts loads them at the first request.
import { run, warmForSnapshot } from './main.js';

/** The arguments the person typed: in a single executable argv[0] and argv[1] are both the binary. */
function start(): void {
  void run(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

const { startupSnapshot } = process.getBuiltinModule('node:v8');
if (startupSnapshot?.isBuildingSnapshot()) {
  void warmForSnapshot();
  startupSnapshot.setDeserializeMainFunction(start);
} else start();
