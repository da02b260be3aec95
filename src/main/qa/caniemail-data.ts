/**
 * caniemail.com's data, imported so the bundler puts it inside the compat
 * worker. The package reads it at run time with a require relative to its own
 * file, which a bundle does not have; electron.vite.config.ts points the
 * package's json.js here instead. The data itself is the package's, unchanged.
 */
import data from 'caniemail/caniemail.json' with { type: 'json' };

export const caniEmailJson = data;
