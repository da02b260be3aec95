import { useStore } from '../../store.ts';
import type { Command } from '../commands/registry.ts';
import { inRuleList } from '../inbox/commands.ts';

const s = () => useStore.getState();

export const RULE_COMMANDS: Command[] = [
  { id: 'rules.next', title: 'Next rule', group: 'Rules', keys: ['j', 'ArrowDown'], when: inRuleList, run: () => s().moveAutomationSelection(1) },
  { id: 'rules.previous', title: 'Previous rule', group: 'Rules', keys: ['k', 'ArrowUp'], when: inRuleList, run: () => s().moveAutomationSelection(-1) },
  {
    id: 'rules.edit',
    title: 'Edit the rule',
    group: 'Rules',
    keys: ['Enter'],
    when: (c) => inRuleList(c) && !c.onControl,
    run: () => void (s().selectedAutomationId && s().editAutomation(s().selectedAutomationId!)),
  },
  { id: 'rules.delete', title: 'Delete the rule', group: 'Rules', keys: ['#', 'Delete'], when: inRuleList, run: () => void (s().selectedAutomationId && s().askRemoveAutomation(s().selectedAutomationId!)) },
  { id: 'rules.undo', title: 'Undo the last rule deleted', group: 'Rules', keys: ['z'], when: inRuleList, run: () => void s().undoRemoveAutomation() },
  { id: 'rules.filter', title: 'Filter the rules', group: 'Rules', keys: ['/'], when: inRuleList, run: () => document.getElementById('automation-filter')?.focus() },
  {
    id: 'rules.new',
    title: 'New automation',
    group: 'Rules',
    keys: ['c'],
    when: (c) => c.view === 'automations',
    // The form's title field takes focus as it mounts.
    run: () => void (!s().automationsLack.create && s().automationsError?.kind !== 'forbidden' && s().editAutomation('new')),
  },
];
