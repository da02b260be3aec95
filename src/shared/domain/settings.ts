/** The user's preferences, kept by main in the settings file. */
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
}

export const AFTER_DELETE = ['next', 'previous', 'list'] as const;
/** How long a delete can be undone before it is sent. */
export const UNDO_MS = 5000;
