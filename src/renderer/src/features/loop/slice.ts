/**
 * The tester's loop in the renderer (main runs it: main/tester-loop.ts): N
 * makes a fresh address (copied, watched), the open watches show with the
 * time they have left, and the first email to a watched address opens by
 * itself with its code (or link) on the clipboard, said in a toast.
 */
import type {
  LoopState,
  WatchCaught,
} from "../../../../shared/domain/tester-loop.ts";
import { asBridgeError } from "../../bridge.ts";
import type { Slice } from "../../store.ts";

export interface LoopSlice {
  loop: LoopState | null;
  setLoop: (state: LoopState) => void;
  /** N: a fresh address at the open account's server, copied and watched. */
  newAddress: () => Promise<void>;
  /** Ends a watch (the newest when no address is given). */
  stopWatch: (address?: string) => Promise<void>;
  /** The newest email's code (else its link) to the clipboard: what the global shortcut does, from the palette. */
  copyNewestCode: () => Promise<void>;
  /** Main caught the first email to a watched address. */
  watchCaught: (caught: WatchCaught) => void;
}

export const createLoopSlice: Slice<LoopSlice> =
  ({ call, clock }) =>
  (set, get) => {
    /** The "watching…" toast of each address: replaced by what its email gave. */
    const watchNotices = new Map<string, number>();
    return {
      loop: null,
      setLoop: (loop) => set({ loop }),
      newAddress: async () => {
        try {
          const { address, until } = await call("newAddress", undefined);
          const minutes = Math.round((until - clock.now()) / 60_000);
          watchNotices.set(
            address,
            get().notify(
              `${address} copied: watching it for ${minutes} minutes. Its first email opens here, its code on your clipboard.`,
              { ms: 6000 },
            ),
          );
        } catch (error) {
          get().notify(asBridgeError(error));
        }
      },
      stopWatch: async (address) => {
        const target = address ?? get().loop?.watches.at(-1)?.address;
        if (!target) return;
        try {
          set({ loop: await call("stopWatch", { address: target }) });
        } catch (error) {
          get().notify(asBridgeError(error));
        }
      },
      copyNewestCode: async () => {
        try {
          const { copied } = await call("copyNewestCode", undefined);
          get().notify(
            copied
              ? `${copied.kind === "code" ? `Code ${copied.text}` : "The newest email’s link"} copied.`
              : "The newest email has no code or link to copy.",
          );
        } catch (error) {
          get().notify(asBridgeError(error));
        }
      },
      watchCaught: (caught) => {
        // The list follows from main's poll; the email opens now, wherever the user was in the inbox.
        if (get().view !== "inbox") get().setView("inbox");
        void get().openMessage(caught.emailId);
        const watching = watchNotices.get(caught.address);
        if (watching !== undefined) get().dismiss(watching);
        watchNotices.delete(caught.address);
        const what = caught.copied
          ? caught.copied.kind === "code"
            ? `Code ${caught.copied.text} copied`
            : "Its link copied"
          : "No code or link found in it";
        get().notify(
          `${what}: “${caught.subject || "(no subject)"}” to ${caught.address}.`,
          { ms: 8000 },
        );
      },
    };
  };
