import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary area="Inbox Desk" actions={<button type="button" onClick={() => location.reload()}>Reload the window</button>}>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
