#!/usr/bin/env node
// The published entry runs the compiled CLI; `npm install` builds dist/ through the prepare script.
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`vectorize: ${error?.message ?? error}\n`);
    process.exitCode = 1;
  },
);
