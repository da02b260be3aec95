import { readFileSync } from 'node:fs';

/**
 * What `npm run server` runs after building the service, as Node arguments
 * (flags, then the script): read from package.json, so that tests and the
 * bench start the service exactly as people do.
 */
export function serverNodeArgs(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { server: string } }).scripts.server;
  const command = script.slice(script.lastIndexOf('node ') + 'node '.length);
  return command.split(/\s+/).filter(Boolean);
}
