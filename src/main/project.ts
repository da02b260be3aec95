/** Where the project lives (package.json's homepage and bugs; a test keeps them equal). */
export const PROJECT = {
  homepage: 'https://github.com/inbox-desk/inbox-desk',
  issues: 'https://github.com/inbox-desk/inbox-desk/issues',
  license: 'MIT',
} as const;
