/**
 * Images main makes for the renderer to show (compare's renderings), served
 * as app files under shown/<id>.png. The renderer loads them as it loads any
 * image, decoded off its UI thread, instead of reading megabytes of data: URL
 * out of an IPC answer on it. The newest few are kept, in memory only. No
 * electron: the app:// protocol and the test host answer with response().
 */
import { randomUUID } from 'node:crypto';
import { resolveAppPath, securityHeaders } from '../security.ts';

/** Two comparisons' worth (two renderings each): the one shown and the one before. */
const KEPT = 4;

export class ShownImages {
  private readonly images = new Map<string, Buffer>();

  /** Keeps `png` and answers the path the renderer shows it from (relative to the app's page). */
  put(png: Buffer): string {
    const id = randomUUID();
    this.images.set(id, png);
    while (this.images.size > KEPT) this.images.delete(this.images.keys().next().value!);
    return `shown/${id}.png`;
  }

  /** The answer for an app:// URL under shown/, or null for any other. */
  response(url: string): Response | null {
    const path = resolveAppPath(url);
    const id = path === null ? undefined : /^shown\/([0-9a-f-]{36})\.png$/.exec(path)?.[1];
    if (id === undefined) return null;
    const png = this.images.get(id);
    return png ? new Response(new Uint8Array(png), { headers: securityHeaders('image/png', path!) }) : new Response('Gone', { status: 404 });
  }
}
