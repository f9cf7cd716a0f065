// Run by call-depth.test.ts in a child process: one uncached `scan(hash)` on the default path (ky over
// `fetch`) of the built package given as argv[2], paused inside `fetch` by the inspector; prints the
// frames between `fetch` and `scan`, async call stacks included, as DevTools shows them (one per line).
import { Session } from 'node:inspector';
import { pathToFileURL } from 'node:url';

const { HashScanClient } = await import(pathToFileURL(process.argv[2]).href);
const session = new Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
await post('Debugger.enable');
await post('Debugger.setAsyncCallStackDepth', { maxDepth: 256 });
let frames;
session.on('Debugger.paused', ({ params }) => {
  frames = params.callFrames.map((frame) => frame.functionName || '(anonymous)');
  for (let trace = params.asyncStackTrace; trace !== undefined; trace = trace.parent) {
    for (const frame of trace.callFrames) frames.push(frame.functionName || '(anonymous)');
  }
  session.post('Debugger.resume');
});
const body = JSON.stringify({ code: 0, md5: 'x' });
globalThis.fetch = async function fetch() {
  // biome-ignore lint/suspicious/noDebugger: the inspector counts the frames here
  debugger;
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
};
const client = new HashScanClient({ apiKey: 'k'.repeat(32), baseUrl: 'https://hashscan.test', telemetry: false });
await client.scan('275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f').catch(() => undefined);
session.disconnect();
const top = frames.indexOf('scan');
process.stdout.write(JSON.stringify(top < 0 ? frames : frames.slice(0, top + 1)));
