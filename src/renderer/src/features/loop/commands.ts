import { useStore } from "../../store.ts";
import type { Command } from "../commands/registry.ts";

const s = () => useStore.getState();

/** The tester's loop: a fresh address to sign up with, and the newest code, from anywhere in the app. */
export const LOOP_COMMANDS: Command[] = [
  {
    id: "loop.new-address",
    title:
      "New address to test with (copied and watched: its first email opens, its code copied)",
    group: "Tester’s bench",
    keys: ["N"],
    run: () => void s().newAddress(),
  },
  {
    id: "loop.copy-newest",
    title:
      "Copy the newest email’s code (the global shortcut does it from any app)",
    group: "Tester’s bench",
    keys: [],
    run: () => void s().copyNewestCode(),
  },
  {
    id: "loop.stop-watch",
    title: "Stop watching the newest address",
    group: "Tester’s bench",
    keys: [],
    when: () => (s().loop?.watches.length ?? 0) > 0,
    run: () => void s().stopWatch(),
  },
];
