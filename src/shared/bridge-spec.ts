/**
 * The names that cross the bridge, free of any schema library so the preload
 * stays small. contract.ts checks that its table has exactly these methods.
 */
export const METHODS = [
  'listEmails',
  'watchList',
  'getEmail',
  'getEmailBody',
  'openEmail',
  'deleteEmail',
  'undoDelete',
  'setFavorite',
  'saveAttachment',
  'saveRawMessage',
  'checkLinks',
  'checkCompatibility',
  'checkSpam',
  'checkAccessibility',
  'previousOfKind',
  'compareEmails',
  'printEmail',
  'getInlineImages',
  'getSnapshot',
  'listAutomations',
  'createAutomation',
  'updateAutomation',
  'deleteAutomation',
  'automationPayload',
  'sendTestPayload',
  'copyText',
  'reportUnsaved',
  'getAccounts',
  'saveAccount',
  'testConnection',
  'switchAccount',
  'removeAccount',
  'getSettings',
  'updateSettings',
  'updateCatcher',
  'deleteAllEmails',
  'openExternal',
  'getAppInfo',
  'newAddress',
  'stopWatch',
  'copyNewestCode',
  'copyCatcherToken',
  'setChaos',
  'updateRelay',
  'releaseEmail',
  'getLoopState',
  'installUpdate',
  'setMenuKeys',
] as const;
export type Method = (typeof METHODS)[number];

export const EVENTS = ['accountsChanged', 'rateLimit', 'menuCommand', 'updateStatus', 'listPolled', 'deleteFailed', 'deleteSettled', 'loopChanged', 'watchCaught'] as const;
export type EventName = (typeof EVENTS)[number];

export interface BridgeSpec {
  methods: readonly string[];
  /**
   * Asked by the preload as it runs, before the renderer's bundle is even parsed:
   * the first screen's calls. The renderer's first call of each (no argument) gets
   * that answer; later calls ask main again.
   */
  early: readonly string[];
  events: readonly string[];
  invokePrefix: string;
  eventPrefix: string;
}

export const BRIDGE_SPEC: BridgeSpec = {
  methods: METHODS,
  early: ['getSnapshot', 'getAccounts', 'getSettings', 'getAppInfo', 'getLoopState'] satisfies Method[],
  events: EVENTS,
  invokePrefix: 'inbox-desk:',
  eventPrefix: 'inbox-desk:event:',
};

export const invokeChannel = (method: Method): string => `${BRIDGE_SPEC.invokePrefix}${method}`;
export const eventChannel = (event: EventName): string => `${BRIDGE_SPEC.eventPrefix}${event}`;
