/** `node|bun|deno run.mjs '<AppConfig JSON>'`: prints what the app answered (see check.ts). */
import type { AppConfig } from './app.js';
import { check } from './check.js';

const config = JSON.parse(process.argv[process.argv.length - 1] ?? '{}') as AppConfig;
console.log(JSON.stringify(await check(config)));
