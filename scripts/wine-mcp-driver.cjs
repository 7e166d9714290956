// The Windows pass's MCP client (scripts/test-windows.sh): run by node.exe under Wine, it starts
// `checkin.exe mcp` with Windows pipes for its stdin and stdout (Node under Wine cannot use a Unix
// pipe, but the pipes one Windows program makes for another are Wine's own), asks `initialize` and
// `tools/list`, and writes both answers as JSON to the file it is given. The same driver, run by
// Linux's node against Linux's checkin, gives the answers the Windows ones are compared with.
//
//   node wine-mcp-driver.cjs <answers.json> <program> [args…]
const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');

const [out, program, ...args] = process.argv.slice(2);
const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'inherit'], windowsHide: true });
const answers = {};
let buffered = '';
// Bounded: a server that never answers ends the driver with a reason, not a hang.
const bound = setTimeout(() => stop(`no answer to ${Object.keys(answers).length ? 'tools/list' : 'initialize'} within 120 s`), 120_000);

function send(message) {
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
}

function stop(failure) {
  clearTimeout(bound);
  child.stdin.end();
  child.kill();
  if (failure) {
    console.error(`wine-mcp-driver: ${failure}`);
    process.exitCode = 1;
  } else {
    writeFileSync(out, `${JSON.stringify(answers, null, 2)}\n`);
  }
}

child.on('error', (err) => stop(`cannot start ${program}: ${err.message}`));
child.on('exit', (code) => {
  if (!answers.tools) stop(`${program} ended (exit ${code}) before answering`);
});
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, end).trim();
    buffered = buffered.slice(end + 1);
    if (!line) continue;
    const message = JSON.parse(line);
    if (message.id === 1) {
      answers.initialize = message;
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/list' });
    } else if (message.id === 2) {
      answers.tools = message;
      stop();
    }
  }
});
send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wine-mcp-driver', version: '1' } } });
