/** The rules: list and write them, preview the payload they would post, send a test, and the unsaved draft main asks about on close. */
import { validateAutomationInput } from '../../shared/domain/automation.ts';
import { DEFAULT_FLAVOR } from '../../shared/flavors/index.ts';
import { ServiceError } from '../api/errors.ts';
import { payloadFor, sendPayload } from '../api/payload.ts';
import type { HandlerTable } from './context.ts';
import type { HandlerContext } from './context.ts';

export type AutomationHandlers = Pick<
  HandlerTable,
  'listAutomations' | 'createAutomation' | 'updateAutomation' | 'deleteAutomation' | 'automationPayload' | 'sendTestPayload' | 'reportUnsaved'
>;

export function automationHandlers(context: HandlerContext): AutomationHandlers & { unsavedDraft: () => string | null } {
  const { accounts, session, withClient } = context;
  /** The title of a rule the renderer has unsaved changes to. */
  let unsavedDraft: string | null = null;

  function checkedAutomation(input: Record<string, unknown>) {
    const active = accounts.summaries().find((a) => a.id === accounts.activeId);
    const checked = validateAutomationInput(input, active?.flavor ?? DEFAULT_FLAVOR);
    if (!checked.ok) throw new ServiceError('validation', 'Some fields need attention.', { fields: checked.errors });
    return checked.value;
  }

  return {
    unsavedDraft: () => unsavedDraft,
    listAutomations: () => withClient((c) => c.listAutomations()),
    createAutomation: ({ input }) => {
      const body = checkedAutomation(input);
      return withClient((c) => c.createAutomation(body));
    },
    updateAutomation: ({ id, input }) => {
      const body = checkedAutomation(input);
      return withClient((c) => c.updateAutomation(id, body));
    },
    deleteAutomation: ({ id, undoMs }) => session.deleteSoon('automation', id, undoMs),
    automationPayload: ({ emailId, input }) => {
      const body = checkedAutomation(input);
      return withClient(async (c) => (await payloadFor(c, emailId, body)).preview);
    },
    sendTestPayload: ({ emailId, input }) => {
      const body = checkedAutomation(input);
      if (!body.action_url) throw new ServiceError('validation', 'Give the rule a webhook URL to send a test to.', { fields: { action_url: ['A webhook URL is needed for a test.'] } });
      return withClient(async (c) => sendPayload(body.action_url!, (await payloadFor(c, emailId, body)).payload, { allowPrivate: (origin) => context.allowPrivateTarget(origin, 'send-test') }));
    },
    reportUnsaved: async ({ title }) => {
      unsavedDraft = title;
      return null;
    },
  };
}
