/** The user's preferences, kept by main in the settings file. */
import { DEFAULT_COPY_SHORTCUT } from './tester-loop.ts';

export const THEMES = ['system', 'light', 'dark'] as const;

export const DENSITIES = ['compact', 'comfortable'] as const;

export interface Settings {
  pageSize: number;
  confirmDelete: boolean;
  theme: (typeof THEMES)[number];
  /** One line a row (compact) or two. */
  density: (typeof DENSITIES)[number];
  /** A desktop notification when new mail arrives (off by default). */
  notifyNewMail: boolean;
  /** What the reader shows after a delete. */
  afterDelete: (typeof AFTER_DELETE)[number];
  /** The global shortcut that copies the newest email's code from any app (Electron's accelerator; '' is off). */
  copyCodeShortcut: string;
  /** SpamAssassin's spamd that scores mail (S), as host:port; '' is off. */
  spamd: string;
  /** Keys the user rebound: a command's id and its bindings instead of the defaults ([] unbinds it). */
  keymap: Record<string, string[]>;
}

export const AFTER_DELETE = ['next', 'previous', 'list'] as const;
/** How long a delete can be undone before it is sent. */
export const UNDO_MS = 5000;

/** The one place settings get their defaults: main's file, its schema and the renderer's first paint read it. */
export const DEFAULT_SETTINGS: Settings = {
  pageSize: 25,
  // Delete has Undo: no question first, unless the user wants one.
  confirmDelete: false,
  theme: 'system',
  density: 'compact',
  notifyNewMail: false,
  afterDelete: 'next',
  keymap: {},
  copyCodeShortcut: DEFAULT_COPY_SHORTCUT,
  spamd: '',
};
