/** The toasts: one way for every part of the app to tell the user something. */
import type { BridgeError } from '../../shared/contract.ts';

export interface Notice {
  id: number;
  tone: 'error' | 'info';
  text: string;
  /** A button on the notice, such as Undo. */
  action?: { label: string; run: () => void };
}

export interface NotifyOptions {
  /** A sentence is told as information, a BridgeError as an error, unless this says otherwise. */
  tone?: Notice['tone'];
  action?: Notice['action'];
  /** How long it stays, in ms. */
  ms?: number;
}

/** Shows a notice and returns its id (0 when the outage banner already tells it). */
export type Notify = (what: string | BridgeError, options?: NotifyOptions) => number;
