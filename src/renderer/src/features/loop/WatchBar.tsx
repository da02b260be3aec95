import { useSyncExternalStore } from "react";
import { useStore } from "../../store.ts";

const NONE: never[] = [];

/** The wall clock in whole seconds, ticking only while something shows it. */
const secondsClock = {
  subscribe: (changed: () => void) => {
    const timer = setInterval(changed, 1000);
    return () => clearInterval(timer);
  },
  now: () => Math.floor(Date.now() / 1000),
};

/** The open watches, each with the time it has left and a Stop: the user always sees what the app waits for. */
export function WatchBar() {
  const watches = useStore((s) => s.loop?.watches ?? NONE);
  if (watches.length === 0) return null;
  return <Watches watches={watches} />;
}

function Watches({
  watches,
}: {
  watches: { address: string; until: number }[];
}) {
  const now = useSyncExternalStore(secondsClock.subscribe, secondsClock.now);
  return (
    <div className="watch-bar" role="status" aria-label="Watched addresses">
      {watches.map((watch) => {
        const left = Math.max(0, Math.floor(watch.until / 1000) - now);
        return (
          <span key={watch.address} className="watch">
            Watching <code>{watch.address}</code> · {Math.floor(left / 60)}:
            {String(left % 60).padStart(2, "0")} left{" "}
            <button
              type="button"
              onClick={() => void useStore.getState().stopWatch(watch.address)}
              aria-label={`Stop watching ${watch.address}`}
            >
              Stop
            </button>
          </span>
        );
      })}
    </div>
  );
}
