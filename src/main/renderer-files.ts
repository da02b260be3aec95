/** The built renderer's files as the app serves them (no electron: the test host serves with this too). */
import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { mimeTypeFor, resolveAppPath, securityHeaders } from './security.ts';

/**
 * The answer to a request for a renderer file: the file with its security
 * headers (securityHeaders), or 404 for anything outside the folder. The
 * app:// protocol (below) and the test host both answer with this.
 */
export async function rendererResponse(rendererDir: string, url: string): Promise<Response> {
  const root = normalize(rendererDir + sep);
  const relative = resolveAppPath(url);
  const file = relative === null ? null : normalize(join(root, relative));
  if (file === null || !file.startsWith(root)) return new Response('Not found', { status: 404 });
  try {
    const bytes = await readFile(file);
    return new Response(bytes, { headers: securityHeaders(mimeTypeFor(file), relative ?? '') });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}

