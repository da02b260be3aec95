import { useEffect, useState } from 'react';
import type { BridgeError } from '../../shared/contract.ts';

function Countdown({ seconds }: { seconds: number }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const timer = setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(timer);
  }, []);
  return left > 0 ? <span> Retrying in {left} s.</span> : null;
}

/** A clear message for any failure, with a retry where one makes sense. */
export function ErrorBanner({ error, onRetry }: { error: BridgeError; onRetry?: () => void }) {
  const wait = error.details.retryAfterSeconds;
  // A request a newer one replaced did not fail: there is nothing to tell.
  if (error.kind === 'cancelled') return null;
  return (
    <div className="error-banner" role="alert" data-kind={error.kind}>
      <span>{error.message}</span>
      {error.kind === 'rate-limited' && wait !== undefined && <Countdown key={`${error.message}:${wait}`} seconds={wait} />}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
