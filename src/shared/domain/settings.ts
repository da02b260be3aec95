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
}
