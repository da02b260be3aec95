import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { useStore } from './store.ts';
import './styles.css';

// Where the first screen's time goes (test/bench/first-screen.ts reads these, as can DevTools' Performance panel).
performance.mark('inbox-desk:bundle-run');
// The first screen as it last stood, asked for before React's first render: painted while the server (or the demo's worker) answers.
void useStore.getState().showSnapshot();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary area="Inbox Desk" actions={<button type="button" onClick={() => location.reload()}>Reload the window</button>}>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
