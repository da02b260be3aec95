/** axe-core's engine as text, bundled into its own chunk: main loads it the first time the accessibility check runs. */
import source from 'axe-core/axe.min.js?raw';

export const AXE_SOURCE: string = source;
