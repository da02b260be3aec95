/// <reference lib="webworker" />
/** The rule preview's matching, off the UI thread (preview-match.ts); the page ends it past its time budget. */
import { previewMatches, type PreviewRule } from './preview-match.ts';
import type { MatchTarget } from '../../../../shared/domain/automation.ts';

self.onmessage = (event: MessageEvent<{ id: number; rule: PreviewRule; targets: MatchTarget[]; addressCriteria: 'address' | 'regex' }>) => {
  const { id, rule, targets, addressCriteria } = event.data;
  self.postMessage({ id, answer: previewMatches(rule, targets, { addressCriteria }) });
};
