#!/usr/bin/env node
// The published entry runs the compiled CLI; `npm install` builds dist/ through the prepare script.
// `convert` runs from the bundled CLI (build/cli-bundle.mjs) where the build made one: a cold call
// loads a few files instead of about 70 modules. The other commands load dist/ as it is (the
// server finds some of its modules by computed paths, which a bundle would not keep).
import { existsSync } from 'node:fs';

const bundled = new URL('../dist/cli-bundle/main.js', import.meta.url);
const entry = process.argv[2] === 'convert' && existsSync(bundled) ? bundled.href : '../dist/cli/main.js';
const { main } = await import(entry);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`vectorize: ${error?.message ?? error}\n`);
    process.exitCode = 1;
  },
);
