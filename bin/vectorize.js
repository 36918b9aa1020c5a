#!/usr/bin/env node
// The published entry runs the compiled CLI; `npm install` builds dist/ through the prepare script.
// `convert` runs from the bundled CLI (build/cli-bundle.mjs) where the build made one: a cold call
// loads a few files instead of about 70 modules. The other commands load dist/ as it is (the
// server finds some of its modules by computed paths, which a bundle would not keep).
import { statSync } from 'node:fs';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
const bundled = new URL('../dist/cli-bundle/main.js', import.meta.url);

/** A bundle older than dist/ (tsc run again without it) would run the code from before. */
function bundleIsCurrent() {
  try {
    return statSync(bundled).mtimeMs >= statSync(compiled).mtimeMs;
  } catch {
    return false;
  }
}

const entry = process.argv[2] === 'convert' && bundleIsCurrent() ? bundled : compiled;
const { main } = await import(entry.href);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`vectorize: ${error?.message ?? error}\n`);
    process.exitCode = 1;
  },
);
