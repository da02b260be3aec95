import type { WindowApi } from '../shared/contract.ts';

declare global {
  interface Window {
    api: WindowApi;
  }
}
