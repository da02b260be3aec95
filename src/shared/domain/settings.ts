/** The user's preferences, kept by main in the settings file. */
export const THEMES = ['system', 'light', 'dark'] as const;

export interface Settings {
  pageSize: number;
  confirmDelete: boolean;
  theme: (typeof THEMES)[number];
}
