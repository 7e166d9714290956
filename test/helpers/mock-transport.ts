// A transport over an undici dispatcher (MockAgent) for tests that script the service's answers
// without a server. checkin itself sends with node:http/node:https (src/api/transport.ts); this
// turns undici's results and failures into the same Exchange and TransportError.
import { request, type Dispatcher } from 'undici';
import { TIMEOUT_CODE, TOO_BIG_CODE, transportError, type Transport } from '../../src/api/transport.js';

const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export function mockTransport(dispatcher: Dispatcher): Transport {
  return {
    async send(req) {
      try {
        const signal = AbortSignal.timeout(req.timeoutMs);
        const res = await request(req.url, {
          dispatcher,
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          body: req.body,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
          signal,
        });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > req.maxBodyBytes) {
            res.body.destroy();
            throw Object.assign(new Error(`answer larger than ${req.maxBodyBytes} bytes`), { code: TOO_BIG_CODE });
          }
          chunks.push(chunk);
        }
        return { status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') };
      } catch (err) {
        if ((err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError') {
          throw Object.assign(transportError(err, true), { code: TIMEOUT_CODE });
        }
        if ((err as { code?: string }).code === TOO_BIG_CODE) throw transportError(err, true);
        // undici does not say whether the request went out; only a failed connect proves it did not.
        const e = transportError(err, true);
        e.written = !CONNECT_FAILURES.has(e.code);
        if (/^UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT$/.test(e.code)) e.code = TIMEOUT_CODE;
        throw e;
      }
    },
    async close() {},
  };
}
