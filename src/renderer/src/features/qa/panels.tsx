import type { ComponentType } from 'react';
import { AccessibilityPanel } from './AccessibilityPanel.tsx';
import type { CheckId } from './checks.ts';
import { ComparePanel } from './ComparePanel.tsx';
import { CompatPanel } from './CompatPanel.tsx';
import { LinkReport } from './LinkReport.tsx';
import { SpamPanel } from './SpamPanel.tsx';

/** Each check's report in the reader, keyed as checks.ts names them: a new check does not compile without its panel. */
export const CHECK_PANELS: Record<CheckId, ComponentType<{ emailId: string }>> = {
  links: LinkReport,
  compat: CompatPanel,
  spam: SpamPanel,
  accessibility: AccessibilityPanel,
  compare: ComparePanel,
};
