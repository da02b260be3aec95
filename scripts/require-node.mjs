// The oldest Node Inbox Desk runs on, each part measured: node:sqlite loads without a flag
// from 22.13, but its full-text index (FTS5, the reference service's search) only from
// 22.16; TypeScript without a flag (the tests' workers, `npm run icons`) from 22.18; and
// process.threadCpuUsage (the stall tests) from 22.19. Node 23 left support before Vitest
// took it, so 24 and up after that. Plain JavaScript that an old Node still parses, so
// that it can say so in one line.
import { pathToFileURL } from 'node:url';

/** What `engines` in package.json says, in words. */
export const NODE_NEEDED = 'Node.js 22.19 or later, or 24 and up';

/** @param {string} version e.g. "22.18.0" */
export function nodeIsSupported(version) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major === 22 ? minor >= 19 : major >= 24;
}

/** Stops with one line when this Node is too old; says nothing otherwise. */
export function requireNode(version = process.versions.node) {
  if (nodeIsSupported(version)) return;
  console.error(
    `Inbox Desk needs ${NODE_NEEDED}; this is Node.js ${version}. Install the current LTS from https://nodejs.org (or run "nvm install", which reads .nvmrc), then run the command again.`,
  );
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) requireNode();
