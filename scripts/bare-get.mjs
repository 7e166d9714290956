// The floor every speed figure is measured against: a bare node:http GET of the same URL, the answer
// printed as indented JSON, as `checkin today --json` prints it. A CommonJS script: as an ES module,
// `import … from 'node:http'` alone costs ~30 ms on Node 24 (its exports' getters load Node's own
// undici), which would flatter every ratio. Read by scripts/bench.mjs and bench-binary-instructions.mjs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the bare GET into `dir` and returns its path; run as `node <path> <url>` with CHECKIN_TOKEN set. */
export function writeBareGet(dir) {
  const file = join(dir, 'bare-get.cjs');
  writeFileSync(
    file,
    `const { request } = require('node:http');
request(process.argv[2], { headers: { authorization: 'Bearer ' + process.env.CHECKIN_TOKEN, accept: 'application/json' } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (d) => (body += d)); res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n'));
}).end();
`,
  );
  return file;
}
